package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/internal/filelock"
)

// applicationID marks a SQLite file as a perfrun history ("pfrh").
const applicationID = 0x70667268

// ErrNewer is returned for a database written by a newer perfrun.
var ErrNewer = errors.New("written by a newer perfrun")

// ErrNotHistory is returned for a SQLite file that is not a history.
var ErrNotHistory = errors.New("not a perfrun history database")

// DB is an open history.
type DB struct {
	db *sql.DB
	// Path is the SQLite file, or the server's URL without its password.
	Path string
	d    dialect
}

// ErrDamaged is returned for a history SQLite cannot read whole.
var ErrDamaged = errors.New("damaged")

// ErrOlder is returned when a history with an older schema is opened for
// reading, which cannot migrate it.
var ErrOlder = errors.New("written by an older perfrun")

// ErrEmpty is returned when a database that holds nothing yet (a server's
// new database, an empty file) is opened for reading: it is no history of
// an older perfrun, only one not yet begun.
var ErrEmpty = errors.New("holds no perfrun history yet: perfrun history add begins one")

// Open opens the history at path for writing, creating it (and its
// folder) if there is none, and migrates an older schema to this
// perfrun's. It refuses, without writing anything, a database from a
// newer perfrun, a SQLite file that holds something else and one that is
// damaged. Openers of one file take turns (an advisory lock on it), so two
// writers creating one history never see each other's half-made schema.
//
// A path that is a postgres:// or postgresql:// URL, or a keyword/value
// connection string (IsServer), opens a history on a PostgreSQL server instead: the same schema, in the connection's current
// schema, where openers take turns on an advisory lock.
func Open(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, len(migrations))
}

// OpenRead opens an existing history for reading only: nothing is created
// or written, so it works in a folder perfrun may not write to.
func OpenRead(ctx context.Context, path string) (*DB, error) {
	if err := CheckLocation(path); err != nil {
		return nil, err
	}
	if IsServer(path) {
		return checkedPostgres(ctx, path, true)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	h, err := connect(path, true)
	if err != nil {
		return nil, err
	}
	if err := h.check(ctx, true); err != nil {
		h.Close()
		if _, jerr := os.Stat(path + "-journal"); jerr == nil {
			// A writer killed mid-add left a journal to roll back, which
			// only a writer can do; then the history reads as before.
			return Open(ctx, path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// open opens path and migrates it to version target (tests build older
// schemas with it).
func open(ctx context.Context, path string, target int) (*DB, error) {
	if err := CheckLocation(path); err != nil {
		return nil, err
	}
	if IsServer(path) {
		return openPostgres(ctx, path, target)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	// An exclusive flock on the database file orders perfrun's openers,
	// apart from the fcntl locks SQLite itself takes.
	unlock, err := filelock.Lock(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer unlock()
	h, err := connect(path, false)
	if err != nil {
		return nil, err
	}
	if err := h.check(ctx, false); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// A rollback journal, not WAL: a reader then needs no -shm file beside
	// the database, so a history in a read-only folder can still be read.
	if _, err := h.db.ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := h.migrate(ctx, target); err != nil {
		h.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// connect opens the database/sql handle. Every connection waits up to 30 s
// for another writer's lock, and every transaction takes the write lock
// when it begins, so two writers queue rather than fail halfway.
func connect(path string, readOnly bool) (*DB, error) {
	mode := ""
	if readOnly {
		mode = "&mode=ro"
	}
	if err := ready(); err != nil {
		return nil, err
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(30000)&_pragma=foreign_keys(1)&_pragma=cache_size(-65536)&_pragma=temp_store(2)&_txlock=immediate" + mode
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &DB{db: db, Path: path}, nil
}

// Close closes the database.
func (h *DB) Close() error { return h.db.Close() }

// check reads the schema version and application id and checks the
// file is whole (SQLite's quick_check), writing nothing: a damaged file is
// refused here, not met later as "out of memory" halfway through a query.
func (h *DB) check(ctx context.Context, reading bool) error {
	version, app, tables, err := h.identity(ctx)
	if errors.Is(err, ErrDamaged) {
		return err
	}
	if err != nil {
		if h.d.postgres {
			return err
		}
		return fmt.Errorf("%w: not a SQLite database SQLite can read (%w)", ErrNotHistory, err)
	}
	if app != applicationID && (version != 0 || app != 0 || tables != 0) {
		return ErrNotHistory
	}
	if version > len(migrations) {
		return fmt.Errorf("%w (schema version %d; this perfrun knows up to %d): left as it is; use a newer perfrun", ErrNewer, version, len(migrations))
	}
	if reading && version == 0 && app == 0 && tables == 0 {
		return ErrEmpty
	}
	if reading && version < len(migrations) {
		return fmt.Errorf("%w (schema version %d): perfrun history add migrates it", ErrOlder, version)
	}
	if h.d.postgres {
		// The server keeps its own files whole.
		return nil
	}
	var result string
	if err := h.db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&result); err != nil {
		return fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	if result != "ok" {
		return fmt.Errorf("%w: %s", ErrDamaged, result)
	}
	return nil
}

func (h *DB) identity(ctx context.Context) (version, app, tables int, err error) {
	if h.d.postgres {
		return h.identityPostgres(ctx)
	}
	if err = h.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return
	}
	if err = h.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return
	}
	err = h.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables)
	return
}

// Version returns the schema version of the database.
func (h *DB) Version(ctx context.Context) (int, error) {
	v, _, _, err := h.identity(ctx)
	return v, err
}

// migrate brings the schema to version target in one transaction; a
// concurrent opener waits for it and then finds nothing to do.
func (h *DB) migrate(ctx context.Context, target int) error {
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if h.d.postgres {
		return h.migratePostgres(ctx, tx, target)
	}
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version >= target {
		return nil
	}
	if err := h.applyMigrations(ctx, tx, version, target); err != nil {
		return err
	}
	// PRAGMA takes no parameters; both values are integers of ours.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", target)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return err
	}
	return tx.Commit()
}

// applyMigrations runs the migrations from version to target in tx.
func (h *DB) applyMigrations(ctx context.Context, tx *sql.Tx, version, target int) error {
	for v := version; v < target; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, h.d.ddl(stmt)); err != nil {
				return fmt.Errorf("migrating to schema %d: %w", v+1, err)
			}
		}
	}
	return nil
}
