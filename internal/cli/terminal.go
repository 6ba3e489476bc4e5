package cli

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/perfrun/perfrun/records"
)

// clearLine is the one control sequence perfrun writes itself: back to
// the start of the line and clear it, for the live progress line. It goes
// to the terminal through clearLineOn, never through printable, so no
// name can carry it.
const clearLine = "\r\x1b[K"

// clearLineOn writes clearLine to w's terminal, past printable's escaping.
func clearLineOn(w io.Writer) {
	if p, ok := w.(printable); ok {
		w = p.w
	}
	io.WriteString(w, clearLine)
}

// printable wraps a command's output so that no name, label or value
// read from a file or a flag can drive the terminal: every control
// character but newline and tab, and every C1 control, is written as a Go
// escape (\x1b, \r). What perfrun writes is otherwise unchanged, so
// benchfmt, CSV and JSON output keep their bytes.
type printable struct{ w io.Writer }

func (p printable) Write(b []byte) (int, error) {
	if !needsEscape(b) {
		return p.w.Write(b)
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case !escaped(r, size):
			out.Write(b[i : i+size])
		case size == 1:
			fmt.Fprintf(&out, `\x%02x`, b[i]) // a C0 control, DEL or a byte of invalid UTF-8
		default:
			fmt.Fprintf(&out, `\u%04x`, r) // a C1 or bidirectional control
		}
		i += size
	}
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// escaped says printable writes the rune (of size bytes) as an escape: a
// control character but newline and tab, DEL, a C1 control, a
// bidirectional control, or a byte of invalid UTF-8.
func escaped(r rune, size int) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && size == 1 || records.Bidi(r)
}

// needsEscape says b holds a rune printable escapes.
func needsEscape(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if escaped(r, size) {
			return true
		}
		b = b[size:]
	}
	return false
}
