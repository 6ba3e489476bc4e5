package records

import (
	"fmt"
	"io"
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

// Lines is s with each of its lines made OneLine: a message that quotes
// a tool's output keeps its lines, and nothing in them drives the
// terminal. A name a user gave must be quoted (%q) where a message
// names it, so a newline in it cannot pass for a line of the message.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = OneLine(l)
	}
	return strings.Join(lines, "\n")
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
		if escapes(r) {
			return false
		}
	}
	return true
}

// Visible is a page's or a JSON file's bytes with every character OneLine
// escapes, but the newline, carriage return and tab that lay a page out,
// written \uXXXX (invalid UTF-8 as \ufffd): in JSON the same value, since
// that is JSON's own escape; in HTML, text a reader sees instead of a
// control that rewrites what follows it.
func Visible(b []byte) []byte {
	if cleanLayout(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case r == '\n' || r == '\r' || r == '\t' || !escapes(r):
			out = append(out, b[i:i+size]...)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	return out
}

// cleanLayout says b has nothing Visible would escape.
func cleanLayout(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r != '\n' && r != '\r' && r != '\t' && escapes(r) {
			return false
		}
	}
	return true
}

// escapes says OneLine writes r as an escape.
func escapes(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029' || Bidi(r)
}

// VisibleWriter passes what is written through Visible before w. A write
// must hold whole characters, as an encoder's or a template's do; a
// character cut across two writes is written \ufffd.
type VisibleWriter struct{ W io.Writer }

func (v VisibleWriter) Write(p []byte) (int, error) {
	if _, err := v.W.Write(Visible(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CSVText is s as a CSV cell a spreadsheet reads as text and a CI runner
// printing the file reads as no command: one that begins as a formula
// (=, +, -, @, a tab or a carriage return), with a colon after blanks (a
// workflow command such as ::error::) or with an apostrophe gets a
// leading apostrophe, as spreadsheets write it. Every CSV perfrun writes
// passes a name through it; FromCSVText undoes it, so a file perfrun
// reads back gives the name it was given.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r'", rune(s[0])) || strings.HasPrefix(strings.TrimLeft(s, " \t"), ":") {
		return "'" + s
	}
	return s
}

// FromCSVText is the text CSVText wrote as s.
func FromCSVText(s string) string { return strings.TrimPrefix(s, "'") }
