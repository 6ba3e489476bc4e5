package records

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxConfigValue bounds a configuration value as written: a results line
// must stay well under the 64 KiB that benchfmt's reader takes, or
// perfrun would write a file it cannot read back.
const MaxConfigValue = 4096

// OneLine is s made safe for one line of a results file or a terminal:
// control characters (a newline that would start a configuration line of
// its own, an escape sequence that would drive the terminal), invalid
// UTF-8, the Unicode line separators and the bidirectional controls are
// written as Go escapes (\n, \x1b, \u202e), and a value longer than MaxConfigValue is cut, saying so.
func OneLine(s string) string {
	if clean(s) && len(s) <= MaxConfigValue {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= MaxConfigValue {
			fmt.Fprintf(&b, "… (%d more bytes)", len(s)-i)
			break
		}
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, r == '\u2028', r == '\u2029', Bidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Bidi says r is a bidirectional control (U+202E and its kin): printed
// raw, it reorders the text after it, so a name can pose as another.
func Bidi(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// clean says s has nothing OneLine would escape.
func clean(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029' || Bidi(r) {
			return false
		}
	}
	return true
}
