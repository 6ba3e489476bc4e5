// Package drivers registers the databases a history is kept in: SQLite
// (modernc.org/sqlite, SQLite compiled to Go) and PostgreSQL (pgx). A
// program that opens a history imports it for its side effect, as a
// database/sql program imports its driver. They are the largest part of
// perfrun to compile, and only the history needs them: perfrun's command
// line links them where it is built with the tag history.Tag, and a
// perfrun built without it (go run ./cmd/perfrun) builds one with it for
// its history commands.
//
// Its promise: importing it is all a program needs to open every history
// perfrun writes, a SQLite file or a PostgreSQL server.
package drivers

import (
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/internal/pgxserver"
)

func init() { history.Register(pgxserver.Driver{}) }
