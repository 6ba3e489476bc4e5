package cli

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// message is err as the terminal shows it: a tool's output quoted in it
// keeps its lines, each with its controls escaped, and a file's name that
// holds a control (which Go's file errors print raw) is quoted, so a
// newline in a name cannot pass for a line of its own.
func message(err error) string {
	msg := err.Error()
	for _, p := range paths(err) {
		if records.OneLine(p) != p {
			msg = strings.ReplaceAll(msg, p, strconv.Quote(p))
		}
	}
	return records.Lines(msg)
}

// paths is every file name a file error in err's chain names.
func paths(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		if pe, ok := e.(*fs.PathError); ok {
			out = append(out, pe.Path)
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			if next := u.Unwrap(); next != nil {
				walk(next)
			}
		case interface{ Unwrap() []error }:
			for _, next := range u.Unwrap() {
				walk(next)
			}
		}
	}
	walk(err)
	return out
}
