package history

import (
	"errors"
	"fmt"
	"regexp"
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

// ErrDirty is returned for results of a build with uncommitted changes:
// they describe no commit, and stored under one they would be a commit of
// their own beside it.
var ErrDirty = errors.New("measured a build with uncommitted changes")

// hexName matches a full or abbreviated hex object name.
var hexName = regexp.MustCompile(`^[0-9a-f]{4,64}$`)

// resolve gives the one name a commit is stored under: its full object
// name. A repository at hand (resolveGit) decides; without one a full
// name stands, and an abbreviation must match exactly one commit already
// in the history. A ref name without a repository, an unknown or
// ambiguous abbreviation, and a dirty build are refused: each would make
// one commit two, or two commits one.
func (w *writer) resolve(name string, resolveGit func(string) (string, bool)) (string, error) {
	if base, ok := strings.CutSuffix(name, "-dirty"); ok {
		return "", fmt.Errorf("%w (%s): measure the commit %s from a clean tree", ErrDirty, name, base)
	}
	if resolveGit != nil {
		if full, ok := resolveGit(name); ok {
			return full, nil
		}
	}
	if !hexName.MatchString(name) {
		return "", fmt.Errorf("%w: %q is a ref name, which moves from commit to commit: give the commit's id, or -git a repository that knows it", ErrBadCommit, name)
	}
	if len(name) == 40 || len(name) == 64 {
		return name, nil
	}
	rows, err := w.tx.QueryContext(w.ctx, w.d.q(`SELECT DISTINCT commit_id FROM runs WHERE substr(commit_id, 1, ?) = ?`), len(name), name)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return "", err
		}
		if len(c) > len(name) {
			found = append(found, c)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", fmt.Errorf("%w: %s is the start of %d commits in the history: give more of it", ErrBadCommit, name, len(found))
	}
	return "", fmt.Errorf("%w: %s is an abbreviation no repository at hand resolves and no commit in the history starts with: give the full id, or -git a repository that knows it", ErrBadCommit, name)
}
