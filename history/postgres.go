package history

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

// metaTable holds what SQLite keeps in its header: the application and
// the schema version.
const metaTable = "perfrun_meta"

// applicationName marks a PostgreSQL schema as a perfrun history.
const applicationName = "perfrun history"

// connectPostgres opens the pool, through the registered Postgres. A
// reader's sessions are read-only on the server's side, so a report
// cannot write even by mistake and a role with SELECT alone is enough.
func connectPostgres(path string, readOnly bool) (*DB, error) {
	if err := ready(); err != nil {
		return nil, err
	}
	db, err := postgres.Open(connString(path), readOnly)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", Printable(path), ErrLocation, postgres.Unparsed(err))
	}
	db.SetMaxOpenConns(4)
	return &DB{db: db, Path: Printable(path), d: dialect{postgres: true}}, nil
}

// openPostgres opens a history on a server for writing, creating its
// tables if the schema has none, and migrates an older one, as open does
// for a file.
func openPostgres(ctx context.Context, path string, target int) (*DB, error) {
	h, err := checkedPostgres(ctx, path, false)
	if err != nil {
		return nil, err
	}
	if err := h.migrate(ctx, target); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w", h.Path, err)
	}
	return h, nil
}

// checkedPostgres connects and refuses, writing nothing, a schema that
// is not a history or is from a newer perfrun (and, reading, an older one).
func checkedPostgres(ctx context.Context, path string, reading bool) (*DB, error) {
	h, err := connectPostgres(path, reading)
	if err != nil {
		return nil, err
	}
	if err := h.db.PingContext(ctx); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w: %w", h.Path, ErrConnect, err)
	}
	if err := h.check(ctx, reading); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w", h.Path, err)
	}
	return h, nil
}

// identityPostgres reads the schema version and application from the
// meta table, and counts the tables of the connection's current schema.
func (h *DB) identityPostgres(ctx context.Context) (version, app, tables int, err error) {
	var meta int
	err = h.db.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE table_name = $1)
		FROM information_schema.tables WHERE table_schema = current_schema()`, metaTable).Scan(&tables, &meta)
	if err != nil || meta == 0 {
		return
	}
	rows, err := h.db.QueryContext(ctx, `SELECT key, value FROM `+metaTable)
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err = rows.Scan(&k, &v); err != nil {
			return
		}
		switch k {
		case "application":
			if v == applicationName {
				app = applicationID
			}
		case "schema":
			if version, err = strconv.Atoi(v); err != nil || version < 0 {
				return 0, 0, 0, fmt.Errorf("%w: schema version %q is not a number", ErrDamaged, v)
			}
		}
	}
	err = rows.Err()
	return
}

// migratePostgres brings the schema to target in tx, which it commits.
// Openers take turns on a transaction-scoped advisory lock, so a second
// one finds the first one's tables made.
func (h *DB) migratePostgres(ctx context.Context, tx *sql.Tx, target int) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, applicationID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+metaTable+` (key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return err
	}
	var version int
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM `+metaTable+` WHERE key = 'schema'`).Scan(&v)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return err
	default:
		if version, err = strconv.Atoi(v); err != nil || version < 0 {
			return fmt.Errorf("%w: schema version %q is not a number", ErrDamaged, v)
		}
	}
	if version >= target {
		return nil
	}
	if err := h.applyMigrations(ctx, tx, version, target); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+metaTable+` (key, value) VALUES ('application', $1), ('schema', $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, applicationName, strconv.Itoa(target)); err != nil {
		return err
	}
	return tx.Commit()
}
