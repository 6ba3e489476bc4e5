package terminal

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/perfrun/perfrun/records"
)

// clearLine is the one control sequence perfrun writes itself: back to
// the start of the line and clear it, for the live progress line. It goes
// to the terminal through ClearLine, never through Printable, so no
// name can carry it.
const clearLine = "\r\x1b[K"

// ClearLine writes clearLine to w's terminal, past Printable's escaping.
func ClearLine(w io.Writer) {
	if p, ok := w.(Printable); ok {
		w = p.w
	}
	io.WriteString(w, clearLine)
}

// Printable wraps a command's output so that no name, label or value
// read from a file or a flag can drive the terminal or a CI runner: every
// control character but newline and tab, and every C1 control, is written
// as a Go escape (\x1b, \r); and a colon that begins a line (after blanks)
// is written \x3a, since a runner reads a line that begins "::" as a
// workflow command (::error::, ::add-mask::). What perfrun writes is
// otherwise unchanged, so benchfmt, CSV and JSON output keep their bytes.
type Printable struct {
	w io.Writer
	// line is where the output stands, shared by every copy and guarded:
	// progress and results reach one stream from several goroutines. nil
	// writes as though every write began a line.
	line *lineState
	// named quotes every string the user gave that holds a line break (a
	// path, a revision, a name) wherever a message repeats it, or a folder
	// of it: a newline in a name never starts a line of perfrun's.
	named *strings.Replacer
}

// lineState is where an output stands: at a line's start or only blanks
// into it (past false), or past them.
type lineState struct {
	mu   sync.Mutex
	past bool
}

// New wraps w, at the start of a line, quoting what the user gave
// (args) where it would break a line (userNames).
func New(w io.Writer, args []string) Printable {
	return Printable{w: w, line: &lineState{}, named: userNames(args)}
}

// userNames quotes, in what perfrun prints, every argument (or a flag's
// value after "=") that holds a line break, and every folder above it
// that still does: the one path by which a name the user gave reaches
// the terminal. nil where no argument holds one.
func userNames(args []string) *strings.Replacer {
	var names []string
	for _, a := range args {
		_, value, isFlag := strings.Cut(a, "=")
		for _, s := range []string{a, value} {
			for ; strings.ContainsAny(s, "\n\r"); s = filepath.Dir(s) {
				if !slices.Contains(names, s) {
					names = append(names, s)
				}
				if filepath.Dir(s) == s {
					break
				}
			}
			if !isFlag {
				break
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	// The longest first: a name's folder is quoted only where the name
	// itself is not.
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, n := range names {
		pairs = append(pairs, n, strconv.Quote(n))
	}
	return strings.NewReplacer(pairs...)
}

func (p Printable) Write(b []byte) (int, error) {
	if p.named != nil {
		n := len(b)
		if _, err := p.write([]byte(p.named.Replace(string(b)))); err != nil {
			return 0, err
		}
		return n, nil
	}
	return p.write(b)
}

// write is Write past the user's names.
func (p Printable) write(b []byte) (int, error) {
	past := false
	if p.line != nil {
		p.line.mu.Lock()
		defer p.line.mu.Unlock()
		past = p.line.past
	}
	if end, ok := plain(b, past); ok {
		n, err := p.w.Write(b)
		if p.line != nil {
			p.line.past = end
		}
		return n, err
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == ':' && !past:
			out.WriteString(`\x3a`)
		case !escaped(r, size):
			out.Write(b[i : i+size])
		case size == 1:
			fmt.Fprintf(&out, `\x%02x`, b[i]) // a C0 control, DEL or a byte of invalid UTF-8
		default:
			fmt.Fprintf(&out, `\u%04x`, r) // a C1 or bidirectional control
		}
		past = pastBlanks(r, past)
		i += size
	}
	if p.line != nil {
		p.line.past = past
	}
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// plain says b needs no escape written where the output stands (past
// its line's blanks or not), and where the output then stands.
func plain(b []byte, past bool) (bool, bool) {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if escaped(r, size) || r == ':' && !past {
			return past, false
		}
		past = pastBlanks(r, past)
		b = b[size:]
	}
	return past, true
}

// pastBlanks is where the output stands after r: a newline starts a line,
// blanks keep its start, anything else is past it.
func pastBlanks(r rune, past bool) bool {
	switch r {
	case '\n':
		return false
	case ' ', '\t':
		return past
	}
	return true
}

// escaped says Printable writes the rune (of size bytes) as an escape: a
// control character but newline and tab, DEL, a C1 control, a
// bidirectional control, or a byte of invalid UTF-8.
func escaped(r rune, size int) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && size == 1 || records.Bidi(r)
}
