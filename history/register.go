package history

import (
	"database/sql"
	"fmt"
	"slices"
)

// Tag is the build tag under which perfrun's command line links the
// history's databases (package history/drivers).
const Tag = "perfrun_history"

// ErrNoDrivers is returned where a history is opened by a program that
// registered no database for it: one that does not import history/drivers.
var ErrNoDrivers = fmt.Errorf("this program has no database to keep a history in (a program that opens one imports github.com/perfrun/perfrun/history/drivers; perfrun is built with -tags %s)", Tag)

// A Postgres is how a history on a PostgreSQL server is reached: history/drivers
// registers perfrun's (pgx).
type Postgres interface {
	// Open opens a pool on the connection string conn, its sessions
	// read-only where readOnly; a string that does not parse is an error
	// Unparsed words.
	Open(conn string, readOnly bool) (*sql.DB, error)
	// Same says whether a and b name one server, database, user and
	// schema; ok is false where either does not parse.
	Same(a, b string) (same, ok bool)
	// Unparsed is why a connection string was refused, without quoting it.
	Unparsed(err error) string
}

// postgres is the registered Postgres.
var postgres Postgres

// Register makes p how every history on a server is reached. A program
// calls it once, before it opens a history (history/drivers does).
func Register(p Postgres) { postgres = p }

// Ready says whether this program can open a history: SQLite's driver and
// a Postgres are registered.
func Ready() bool {
	return postgres != nil && slices.Contains(sql.Drivers(), "sqlite")
}

// ready is ErrNoDrivers where this program cannot open a history.
func ready() error {
	if !Ready() {
		return ErrNoDrivers
	}
	return nil
}
