package cli

import (
	"bytes"
	"testing"
)

// TestPrintableEscapesControls: a name or label holding an escape sequence
// reaches the terminal as visible text, perfrun's own clear-line sequence
// too (a cell name holding it could overwrite a REGRESSION line: it was
// let through); plain UTF-8 is written unchanged, and perfrun's own
// progress line clears through clearLineOn.
func TestPrintableEscapesControls(t *testing.T) {
	for in, want := range map[string]string{
		"rcu at 2 threads\n":         "rcu at 2 threads\n",
		"tab\tand é ✓\n":             "tab\tand é ✓\n",
		clearLine + "[1/5] 3/8  rcu": `\x0d\x1b[K[1/5] 3/8  rcu`,
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

func TestClearLineOnTheTerminal(t *testing.T) {
	var b bytes.Buffer
	clearLineOn(printable{&b})
	if b.String() != clearLine {
		t.Errorf("wrote %q, want %q", b.String(), clearLine)
	}
}
