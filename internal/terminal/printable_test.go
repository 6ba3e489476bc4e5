package terminal

import (
	"bytes"
	"strings"
	"testing"
)

// TestPrintableEscapesControls: a name or label holding an escape sequence
// reaches the terminal as visible text, perfrun's own clear-line sequence
// too (a cell name holding it could overwrite a REGRESSION line: it was
// let through); plain UTF-8 is written unchanged, and perfrun's own
// progress line clears through ClearLine.
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
		n, err := Printable{w: &b}.Write([]byte(in))
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
	ClearLine(Printable{w: &b})
	if b.String() != clearLine {
		t.Errorf("wrote %q, want %q", b.String(), clearLine)
	}
}

// TestNoLineIsAWorkflowCommand: a name or label that would begin a line
// of output with "::" — which a CI runner reads as a command, ::error::
// to fake a failure, ::add-mask:: to hide output — begins it escaped,
// however the line's writes are split; a colon inside a line is written
// as it is.
func TestNoLineIsAWorkflowCommand(t *testing.T) {
	for _, writes := range [][]string{
		{"::error::forged\n"},
		{"   ::error::forged\n"},
		{"ok line\n\t::add-mask::x\n"},
		{"cell ", "a:b\n", "  ", "::warning::x\n"},
		{"first\n", ":", ":error::split\n"},
	} {
		var b bytes.Buffer
		p := New(&b, nil)
		for _, w := range writes {
			if _, err := p.Write([]byte(w)); err != nil {
				t.Fatal(err)
			}
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), ":") {
				t.Errorf("%q wrote a line that begins with a colon: %q", writes, line)
			}
		}
		if strings.Contains(strings.Join(writes, ""), "a:b") && !strings.Contains(b.String(), "a:b") {
			t.Errorf("a colon inside a line was escaped: %q", b.String())
		}
	}
}
