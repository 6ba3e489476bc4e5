package history

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/perfrun/perfrun/internal/regularfile"
)

// ErrLocation is returned for a history location that names neither a
// SQLite file perfrun may use nor a PostgreSQL server.
var ErrLocation = errors.New("not a history location")

// ErrConnect is returned when a history's server cannot be reached.
var ErrConnect = errors.New("cannot connect")

// A location is a SQLite file's path, a postgres:// or postgresql:// URL
// (the scheme in any case), or a PostgreSQL keyword/value connection
// string ("host=… dbname=…", any keyword first: libpq has dozens and adds
// more). Every other URL is refused: a file named like a URL, or like
// "key=value", is never what its user meant.
var (
	schemeRE  = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*):(//)?`)
	keywordRE = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_]*\s*=`)
)

// IsServer says whether a history's location names a PostgreSQL server
// rather than a SQLite file.
func IsServer(loc string) bool {
	if m := schemeRE.FindStringSubmatch(loc); m != nil && m[2] != "" {
		s := strings.ToLower(m[1])
		return s == "postgres" || s == "postgresql"
	}
	return keywordRE.MatchString(loc)
}

// connString is a server location as pgx parses it: a URL's scheme in
// lower case (pgx knows no other spelling).
func connString(loc string) string {
	if m := schemeRE.FindStringSubmatch(loc); m != nil && m[2] != "" {
		return strings.ToLower(m[1]) + loc[len(m[1]):]
	}
	return loc
}

// Printable is a history location fit to print: a server's password
// hidden in every form a location can carry one (the URL's user
// information, a password= parameter of the URL or of a connection
// string).
func Printable(loc string) string {
	if m := schemeRE.FindStringSubmatch(loc); !IsServer(loc) && m != nil && m[2] != "" {
		// A URL of another scheme, refused: its user information is a
		// secret all the same.
		if u, err := url.Parse(loc); err == nil {
			return u.Redacted()
		}
		return m[1] + "://…"
	}
	if !IsServer(loc) {
		return loc
	}
	if keywordRE.MatchString(loc) {
		return hideSecrets(loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return strings.SplitN(loc, "://", 2)[0] + "://…"
	}
	q := u.Query()
	hidden := false
	for k := range q {
		if strings.Contains(strings.ToLower(k), "password") {
			q[k] = []string{"xxxxx"}
			hidden = true
		}
	}
	if hidden {
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// CheckLocation refuses, before anything is opened or written, a location
// that names no history perfrun may use: a URL of another scheme, an
// empty name, or a path that exists and is not a regular file (a device,
// a FIFO, a folder, or a link to one).
func CheckLocation(loc string) error {
	if IsServer(loc) {
		return nil
	}
	if m := schemeRE.FindStringSubmatch(loc); m != nil && m[2] != "" {
		return fmt.Errorf("%s: %w: want a SQLite file's path or a postgres:// URL", Printable(loc), ErrLocation)
	}
	if strings.TrimSpace(loc) == "" {
		return fmt.Errorf("%w: an empty name", ErrLocation)
	}
	fi, err := os.Stat(loc)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// Only a link can be there and lead nowhere: a file another
		// process created since the Stat is a history being made.
		if lfi, lerr := os.Lstat(loc); lerr == nil && lfi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s: %w: a link to nothing", loc, ErrLocation)
		}
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: %w: not a regular file (%s)", loc, ErrLocation, regularfile.Kind(fi.Mode()))
	}
	return nil
}

// Same says whether two locations name one history: two spellings of a
// file's path (relative, through a link) or two URLs of one server,
// database, user and schema, whatever the order of their parameters.
func Same(a, b string) bool {
	if IsServer(a) != IsServer(b) {
		return false
	}
	if IsServer(a) {
		if postgres != nil {
			if same, ok := postgres.Same(connString(a), connString(b)); ok {
				return same
			}
		}
		return a == b
	}
	return canonical(a) == canonical(b)
}

// canonical is a file's absolute path with every link resolved; for a file
// not made yet, its folder's.
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
