package cli

import (
	"bytes"
	"testing"
)

// TestPrintableEscapesControls: a name or label holding an escape sequence
// reaches the terminal as visible text; perfrun's own progress line and
// plain UTF-8 are written unchanged.
func TestPrintableEscapesControls(t *testing.T) {
	for in, want := range map[string]string{
		"rcu at 2 threads\n":         "rcu at 2 threads\n",
		"tab\tand é ✓\n":             "tab\tand é ✓\n",
		clearLine + "[1/5] 3/8  rcu": clearLine + "[1/5] 3/8  rcu",
		"name\x1b]0;pwned\x07\n":     `name\x1b]0;pwned\x07` + "\n",
		"\x1b[2Jcleared":             `\x1b[2Jcleared`,
		"c1 \u009b31m":               `c1 \u009b31m`,
		"bad \xff utf8":              `bad \xff utf8`,
		"cr\rover":                   `cr\x0dover`,
	} {
		var b bytes.Buffer
		n, err := printable{&b}.Write([]byte(in))
		if err != nil || n != len(in) {
			t.Errorf("Write(%q) = %d, %v", in, n, err)
		}
		if b.String() != want {
			t.Errorf("Write(%q) wrote %q, want %q", in, b.String(), want)
		}
	}
}
