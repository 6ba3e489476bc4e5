package history

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadCommit is returned for a commit name that is neither a hex object
// name nor a git ref name: a value read from a results file or a flag is
// data, and is never handed to git unless it cannot be read as an option.
var ErrBadCommit = errors.New("not a commit name")

// CheckCommit accepts what a commit may be called: a hex object name, or a
// ref name by git's rules (check-ref-format), with perfrun's "-dirty"
// suffix allowed. It refuses anything that begins with "-" (git would read
// it as an option), whitespace and control characters, and the sequences
// git forbids in ref names.
func CheckCommit(c string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %q %s", ErrBadCommit, c, why) }
	switch {
	case c == "":
		return bad("is empty")
	case len(c) > 255:
		return bad("is longer than 255 bytes")
	case strings.HasPrefix(c, "-"):
		return bad("begins with '-'")
	case strings.HasPrefix(c, "/"), strings.HasSuffix(c, "/"), strings.HasSuffix(c, "."), strings.HasSuffix(c, ".lock"):
		return bad("begins or ends as no ref name may")
	case strings.Contains(c, ".."), strings.Contains(c, "//"), strings.Contains(c, "@{"), strings.Contains(c, "/."):
		return bad("holds a sequence no ref name may")
	}
	for _, r := range c {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(`~^:?*[\`, r) {
			return bad(fmt.Sprintf("holds %q, which no commit name may", r))
		}
	}
	return nil
}
