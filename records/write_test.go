package records

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestWriteKeepsValuesOnOneLine: a value holding a newline (a -match
// pattern, a corpus path) must not become a configuration line of its own,
// and a value far longer than a line may be must not make a file perfrun
// cannot read back. Written raw, the first file says cores: 64 and the
// second fails with "token too long".
func TestWriteKeepsValuesOnOneLine(t *testing.T) {
	for name, v := range map[string]string{
		"newline": "x\ncores: 64",
		"cr":      "x\rcores: 64",
		"escape":  "\x1b[2J\x1b[31mred",
		"long":    strings.Repeat("l", 70<<10),
		"invalid": "a\xffb",
	} {
		s := New("w", "")
		s.Add(&benchfmt.Result{
			Config: []benchfmt.Config{{Key: "cores", Value: []byte("2"), File: true}, {Key: "command", Value: []byte(v), File: true}},
			Name:   benchfmt.Name("A/threads=1"), Iters: 1, Values: []benchfmt.Value{{Value: 1e-7, Unit: "sec/op"}},
		})
		var buf bytes.Buffer
		if err := s.Write(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := Read(&buf, name+".txt", name)
		if err != nil {
			t.Errorf("%s: written file does not read back: %v", name, err)
			continue
		}
		if got.Cores() != 2 {
			t.Errorf("%s: the file says %d cores, want 2", name, got.Cores())
		}
		cmd := got.first.GetConfig("command")
		if strings.ContainsAny(cmd, "\n\r\x1b") || len(cmd) > MaxConfigValue+64 {
			t.Errorf("%s: command value written as %.60q (%d bytes)", name, cmd, len(cmd))
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text é": "plain text é",
		"a\nb":         `a\nb`,
		"\x1b[31m":     `\x1b[31m`,
		"a\u2028b":     `a\u2028b`,
		"a\xffb":       `a\xffb`,
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLinesKeepsLinesAndEscapesTheRest: a tool's output quoted in an
// error keeps its lines; a carriage return that would overwrite one, and
// an escape sequence, are written as escapes.
func TestLinesKeepsLinesAndEscapesTheRest(t *testing.T) {
	in := "go build: exit status 1:\n./a.go:3: undefined: x\rPASS\n\x1b[2J"
	want := "go build: exit status 1:\n./a.go:3: undefined: x\\rPASS\n\\x1b[2J"
	if got := Lines(in); got != want {
		t.Errorf("Lines(%q) = %q, want %q", in, got, want)
	}
}
