// Package pgxserver is the part of a history on a PostgreSQL server that
// needs pgx: opening a pool, reading a connection string, wording why one
// was refused. It is apart from package history so that a program links
// pgx only where it opens a history (history/drivers), and it imports
// nothing of perfrun so that history's own tests can use it.
package pgxserver

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Driver is pgx as history.Postgres.
type Driver struct{}

// Open opens a pool on conn. A reader's sessions are read-only on the
// server's side, so a report cannot write even by mistake and a role with
// SELECT alone is enough.
func (Driver) Open(conn string, readOnly bool) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(conn)
	if err != nil {
		return nil, err
	}
	if readOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	return stdlib.OpenDB(*cfg), nil
}

// Same says whether a and b name one server, database, user and schema,
// whatever the order of their parameters; ok is false where either does
// not parse.
func (Driver) Same(a, b string) (same, ok bool) {
	ca, erra := pgx.ParseConfig(a)
	cb, errb := pgx.ParseConfig(b)
	if erra != nil || errb != nil {
		return false, false
	}
	return ca.Host == cb.Host && ca.Port == cb.Port && ca.Database == cb.Database &&
		ca.User == cb.User && ca.RuntimeParams["search_path"] == cb.RuntimeParams["search_path"], true
}

// Unparsed is why pgx refused a connection string, without the string it
// quotes: pgx hides a password there by a pattern that stops at an
// escaped space.
func (Driver) Unparsed(err error) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	msg := pe.Error()
	if i := strings.LastIndex(msg, "`: "); i >= 0 {
		return "cannot parse it: " + msg[i+3:]
	}
	return "cannot parse it"
}
