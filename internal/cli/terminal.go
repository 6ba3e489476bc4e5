package cli

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// clearLine is the one control sequence perfrun writes itself: back to
// the start of the line and clear it, for the live progress line.
const clearLine = "\r\x1b[K"

// printable wraps a command's output so that no name, label or value
// read from a file or a flag can drive the terminal: every control
// character but newline and tab, and every C1 control, is written as a Go
// escape (\x1b), except perfrun's own clearLine. What perfrun writes is
// otherwise unchanged, so benchfmt, CSV and JSON output keep their bytes.
type printable struct{ w io.Writer }

func (p printable) Write(b []byte) (int, error) {
	if !needsEscape(b) {
		return p.w.Write(b)
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		if bytes.HasPrefix(b[i:], []byte(clearLine)) {
			out.WriteString(clearLine)
			i += len(clearLine)
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n' || r == '\t':
			out.WriteByte(b[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&out, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&out, `\u%04x`, r)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&out, `\x%02x`, b[i])
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// needsEscape says b holds a byte printable may rewrite: a control
// character other than newline and tab, or a byte of a C1 control or of
// invalid UTF-8 (0x80 and above, checked rune by rune).
func needsEscape(b []byte) bool {
	for i, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			return !utf8.Valid(b[i:]) || hasC1(b[i:])
		}
	}
	return false
}

func hasC1(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x80 && r < 0xa0 || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return true
		}
		b = b[size:]
	}
	return false
}
