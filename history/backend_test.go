package history

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// backend is where a test's history lives.
type backend struct {
	name string
	// path gives the path of a new, empty history.
	path func(t testing.TB) string
}

var sqliteBackend = backend{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "sub", "history.db") }}

var postgresBackend = backend{"postgres", freshSchema}

// eachBackend runs f on a SQLite file and on a PostgreSQL server. The
// server is $PERFRUN_TEST_POSTGRES (.ci/postgres starts one); without it
// the server's half is skipped, unless CI is set: there it fails.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	for _, b := range []backend{sqliteBackend, postgresBackend} {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

// openOn opens a new history on b, closed when the test ends.
func openOn(t testing.TB, b backend) *DB {
	t.Helper()
	h, err := Open(ctx, b.path(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// server is the test server's URL, skipping or failing the test without one.
func server(t testing.TB) string {
	t.Helper()
	u := os.Getenv("PERFRUN_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and PERFRUN_TEST_POSTGRES is not: .ci/run starts a PostgreSQL server for these tests")
		}
		t.Skip("no PostgreSQL server: set PERFRUN_TEST_POSTGRES (eval \"$(.ci/postgres start)\") to test the server backend")
	}
	return u
}

var (
	adminOnce sync.Once
	admin     *sql.DB
	schemas   atomic.Int64
)

// freshSchema makes an empty schema on the test server for one test,
// dropped when it ends, and returns the URL of a history in it.
func freshSchema(t testing.TB) string {
	t.Helper()
	base := server(t)
	adminOnce.Do(func() {
		var err error
		if admin, err = sql.Open("pgx", base); err != nil {
			panic(err)
		}
	})
	name := fmt.Sprintf("t%d_%d", os.Getpid(), schemas.Add(1))
	if _, err := admin.Exec("CREATE SCHEMA " + name); err != nil {
		t.Fatalf("test server %s: %v", Printable(base), err)
	}
	t.Cleanup(func() { admin.Exec("DROP SCHEMA " + name + " CASCADE") })
	return inSchema(t, base, name)
}

// inSchema is the URL base with its tables in schema.
func inSchema(t testing.TB, base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestReadOnlyRole: a role that may only SELECT reads a server's history
// (series, steps, counts) and cannot write to it; a reader's session
// refuses writes even for a role that could.
func TestReadOnlyRole(t *testing.T) {
	path := freshSchema(t)
	h := openOn(t, backend{"postgres", func(testing.TB) string { return path }})
	addSeries(t, h, "ci", 30, 15, 0.2, 1)
	u, _ := url.Parse(path)
	schema := u.Query().Get("search_path")
	role := "reader_" + schema
	for _, stmt := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT USAGE ON SCHEMA " + schema + " TO " + role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role,
	} {
		if _, err := admin.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		admin.Exec("DROP OWNED BY " + role)
		admin.Exec("DROP ROLE " + role)
	})
	u.User = url.User(role)
	r, err := OpenRead(ctx, u.String())
	if err != nil {
		t.Fatalf("a role that may only SELECT: %v", err)
	}
	defer r.Close()
	ss, err := r.Series(ctx, Filter{})
	if err != nil || len(ss) != 4 {
		t.Fatalf("read %d series, %v; want 4", len(ss), err)
	}
	if st, err := r.Stats(ctx); err != nil || st.Files != 30 {
		t.Errorf("stats %+v, %v", st, err)
	}
	if _, err := r.Add(ctx, "x.txt", resultsText(fmt.Sprintf("%040x", 99), 99, "ci", map[string]float64{"X/impl=a": 1}, 2, false), AddOptions{}); err == nil {
		t.Error("a reader added a file")
	}
	owner, err := OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if _, err := owner.Add(ctx, "x.txt", resultsText(fmt.Sprintf("%040x", 99), 99, "ci", map[string]float64{"X/impl=a": 1}, 2, false), AddOptions{}); err == nil {
		t.Error("a session opened for reading added a file")
	}
}
