package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/history/changepoint"
)

var ctx = context.Background()

func openTemp(t testing.TB) *DB {
	t.Helper()
	h, err := Open(ctx, filepath.Join(t.TempDir(), "sub", "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// resultsText is a perfrun results file of one commit: rounds values of
// ns/op for each cell, and one allocs/op.
func resultsText(commit string, day int, machine string, cells map[string]float64, rounds int, quarantined bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Unit allocs/op assume=exact\ncpu: Test CPU\ncores: 2\ngo: go1.26\nperfrun: %s\ndate: %s\n", commit,
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, day).Format(time.RFC3339))
	if machine != "" {
		fmt.Fprintf(&b, "machine: %s\n", machine)
	}
	b.WriteString("\n")
	names := make([]string, 0, len(cells))
	for n := range cells {
		names = append(names, n)
	}
	slicesSort(names)
	for _, n := range names {
		for r := 0; r < rounds; r++ {
			fmt.Fprintf(&b, "Benchmark%s 1 %g ns/op 0 allocs/op\n", n, cells[n]*(1+0.001*float64(r)))
		}
	}
	if quarantined {
		b.WriteString("quarantined: a worker waited for a CPU 50% of the window\n")
		fmt.Fprintf(&b, "Benchmark%s 1 %g ns/op 0 allocs/op\n", names[0], 1e9)
	}
	return b.Bytes()
}

func slicesSort(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func stats(t *testing.T, h *DB) Stats {
	t.Helper()
	s, err := h.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAddAndReadBack(t *testing.T) { eachBackend(t, testAddAndReadBack) }

func testAddAndReadBack(t *testing.T, b backend) {
	h := openOn(t, b)
	data := resultsText("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, "ci", map[string]float64{"Issuer/impl=rcu/threads=1": 40, "Issuer/impl=sorted/threads=1": 300}, 3, true)
	a, err := h.Add(ctx, "a.txt", data, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Duplicate || a.Runs != 1 || a.Samples != 12 || a.Aside != 1 {
		t.Errorf("added %+v, want 1 run, 12 samples (2 cells × 3 rounds × 2 units), 1 set aside", a)
	}
	again, err := h.Add(ctx, "copy-of-a.txt", data, AddOptions{})
	if err != nil || !again.Duplicate {
		t.Fatalf("adding the same bytes again: %+v, %v; want a no-op", again, err)
	}
	if s := stats(t, h); s.Files != 1 || s.Samples != 12 || s.Series != 4 {
		t.Errorf("after adding twice: %+v, want 1 file, 12 samples, 4 series", s)
	}
	ss, err := h.Series(ctx, Filter{Units: []string{"ns/op"}, Cell: regexp.MustCompile("rcu")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Unit != "sec/op" || ss[0].Machine != "ci" || len(ss[0].Points) != 1 || len(ss[0].Points[0].Values) != 3 {
		t.Fatalf("series %+v", ss)
	}
	if v := ss[0].Points[0].Values[0]; v != 40e-9 {
		t.Errorf("value %g, want 40e-9 sec/op (the quarantined 1e9 must not be stored)", v)
	}
}

// TestGoTestBenchOutput: plain go test -bench output becomes history, with
// the commit given; without one it is refused and nothing is stored.
func TestGoTestBenchOutput(t *testing.T) { eachBackend(t, testGoTestBenchOutput) }

func testGoTestBenchOutput(t *testing.T, b backend) {
	h := openOn(t, b)
	data, err := os.ReadFile("testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Add(ctx, "bench.txt", data, AddOptions{}); !errors.Is(err, ErrNoCommit) {
		t.Fatalf("go test output without -commit: %v, want ErrNoCommit", err)
	}
	if s := stats(t, h); s.Files != 0 || s.Runs != 0 {
		t.Fatalf("a refused file left %+v behind", s)
	}
	when := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a, err := h.Add(ctx, "bench.txt", data, AddOptions{Commit: "0123456789abcdef0123456789abcdef01234567", CommitTime: when})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := h.Series(ctx, Filter{})
	if a.Samples != 2 || len(ss) != 1 || ss[0].Cell != "github.com/perfrun/perfrun/impls/rcu:Issuer-2" ||
		ss[0].Machine != "Intel(R) Xeon(R) Processor" || !ss[0].Points[0].Time.Equal(when) {
		t.Errorf("added %+v; series %+v", a, ss[0])
	}
}

// TestAllOrNothing: a file whose second run cannot be stored leaves no
// trace of its first.
func TestAllOrNothing(t *testing.T) { eachBackend(t, testAllOrNothing) }

func testAllOrNothing(t *testing.T, b backend) {
	h := openOn(t, b)
	good := resultsText("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, "ci", map[string]float64{"X/impl=a": 1}, 2, false)
	bad := bytes.Replace(resultsText("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 1, "ci", map[string]float64{"X/impl=a": 1}, 2, false), []byte("perfrun: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"), []byte("perfrun: unknown"), 1)
	if _, err := h.Add(ctx, "two.txt", append(append(good, '\n'), bad...), AddOptions{}); !errors.Is(err, ErrNoCommit) {
		t.Fatalf("err %v, want ErrNoCommit", err)
	}
	if s := stats(t, h); s.Files+s.Runs+s.Samples+s.Series != 0 {
		t.Errorf("a failed file left %+v", s)
	}
}

// TestNewerDatabaseRefused: a database from a newer perfrun is refused
// with a clear error, and its bytes are not touched.
func TestNewerDatabaseRefused(t *testing.T) { eachBackend(t, testNewerDatabaseRefused) }

func testNewerDatabaseRefused(t *testing.T, b backend) {
	path := b.path(t)
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Add(ctx, "a.txt", resultsText("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, "ci", map[string]float64{"X/impl=a": 1}, 2, false), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	newer := fmt.Sprintf("PRAGMA user_version = %d", Schema+1)
	if h.d.postgres {
		newer = fmt.Sprintf("UPDATE %s SET value = '%d' WHERE key = 'schema'", metaTable, Schema+1)
	}
	if _, err := h.db.Exec(newer); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, h)
	h.Close()
	_, err = Open(ctx, path)
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), fmt.Sprintf("schema version %d", Schema+1)) {
		t.Fatalf("opening a newer database: %v", err)
	}
	again, err := connectAs(h, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if after := snapshot(t, again); after != before {
		t.Errorf("refusing a newer database changed it:\n%s\n%s", before, after)
	}
}

// connectAs connects to path as h was connected, checking nothing.
func connectAs(h *DB, path string) (*DB, error) {
	if h.d.postgres {
		return connectPostgres(path, true)
	}
	return connect(path, true)
}

// snapshot is what the database holds: the file's bytes, or the server's
// tables and their rows.
func snapshot(t *testing.T, h *DB) string {
	t.Helper()
	if !h.d.postgres {
		return fileSnapshot(t, h.Path)
	}
	var b strings.Builder
	for _, table := range []string{metaTable, "files", "runs", "series", "samples", "steps"} {
		var n int
		if err := h.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d\n", table, n)
	}
	rows, err := h.db.Query("SELECT key, value FROM " + metaTable + " ORDER BY key")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		rows.Scan(&k, &v)
		fmt.Fprintf(&b, "%s=%s\n", k, v)
	}
	return b.String()
}

// fileSnapshot is a SQLite database's files and their bytes.
func fileSnapshot(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		data, err := os.ReadFile(p)
		if err == nil {
			fmt.Fprintf(&b, "%s %d %x\n", filepath.Base(p), len(data), data[:min(len(data), 100)])
			fmt.Fprintf(&b, "%x\n", bytesHash(data))
		}
	}
	return b.String()
}

func bytesHash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// TestNotAHistory: a SQLite file of something else is refused untouched.
func TestNotAHistory(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		path := freshSchema(t)
		db, err := sql.Open("pgx", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec("CREATE TABLE songs (title TEXT)"); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, path); !errors.Is(err, ErrNotHistory) {
			t.Fatalf("opening a schema of another application's: %v, want ErrNotHistory", err)
		}
		var tables int
		if err := db.QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").Scan(&tables); err != nil || tables != 1 {
			t.Errorf("after refusing it, the schema holds %d tables (%v), want its one", tables, err)
		}
	})
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE songs (title TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(ctx, path); !errors.Is(err, ErrNotHistory) {
		t.Fatalf("opening another application's database: %v, want ErrNotHistory", err)
	}
	if err := os.WriteFile(path, []byte("not a database at all, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, path); err == nil {
		t.Fatal("opening a text file as a history: no error")
	}
}

// TestMigration: a database of schema 1 with data is migrated to the
// current schema on open, its data kept, and then takes steps.
func TestMigration(t *testing.T) { eachBackend(t, testMigration) }

func testMigration(t *testing.T, b backend) {
	path := b.path(t)
	old, err := open(ctx, path, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Add(ctx, "a.txt", resultsText("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, "ci", map[string]float64{"X/impl=a": 1}, 2, false), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, _ := old.Version(ctx); v != 1 {
		t.Fatalf("old database at version %d", v)
	}
	old.Close()
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if v, _ := h.Version(ctx); v != Schema {
		t.Errorf("migrated to %d, want %d", v, Schema)
	}
	if s := stats(t, h); s.Samples != 4 {
		t.Errorf("after migration: %+v, want the 4 samples kept", s)
	}
	ss, _ := h.Series(ctx, Filter{})
	if err := h.Record(ctx, []Step{{Series: ss[0], Index: 0, Before: "x", After: "aaaa", From: 1, Shift: changepoint.Step{Shift: 0.1}}}, time.Now()); err != nil {
		t.Errorf("recording a step after migration: %v", err)
	}
}

// addSeries adds n commits of two cells on a machine, the first cell's
// level stepping by step at commit at, in ±3% noise.
func addSeries(t testing.TB, h *DB, machine string, n, at int, step float64, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i < n; i++ {
		level := 100.0
		if i >= at {
			level *= 1 + step
		}
		cells := map[string]float64{
			"Issuer/impl=rcu/threads=1":    level * (1 + 0.03*(2*rng.Float64()-1)),
			"Issuer/impl=sorted/threads=1": 300 * (1 + 0.03*(2*rng.Float64()-1)),
		}
		commit := fmt.Sprintf("%040x", i+1)
		if _, err := h.Add(ctx, fmt.Sprintf("%s-%d.txt", machine, i), resultsText(commit, i, machine, cells, 3, false), AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStepsInHistory: a +8% step at commit 40 of 80 on one machine is
// found between commits 40 and 41, named a regression (ns/op went up),
// with an interval that holds it; the other cell and the other machine,
// flat, have none; recorded, it is no longer new.
func TestStepsInHistory(t *testing.T) { eachBackend(t, testStepsInHistory) }

func testStepsInHistory(t *testing.T, b backend) {
	h := openOn(t, b)
	addSeries(t, h, "ci-a", 80, 40, 0.08, 1)
	addSeries(t, h, "ci-b", 80, 80, 0, 2)
	ss, err := h.Series(ctx, Filter{Units: []string{"ns/op"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 4 {
		t.Fatalf("%d series, want 4 (2 cells × 2 machines)", len(ss))
	}
	steps, err := FindSteps(ctx, ss, changepoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 1 {
		t.Fatalf("found %d steps, want 1: %+v", len(steps), steps)
	}
	st := steps[0]
	rel, lo, hi := st.Relative()
	if st.Series.Machine != "ci-a" || !strings.Contains(st.Series.Cell, "rcu") || st.Before != fmt.Sprintf("%040x", 40) ||
		st.After != fmt.Sprintf("%040x", 41) || !st.Regression || !(lo < 0.08 && 0.08 < hi) || rel < 0.06 || rel > 0.10 {
		t.Errorf("step %s..%s in %s: %+.3f [%+.3f, %+.3f], regression %v", st.Before, st.After, st.Series.Name(), rel, lo, hi, st.Regression)
	}
	if err := h.Mark(ctx, steps); err != nil || !steps[0].New {
		t.Fatalf("before recording: new %v, %v", steps[0].New, err)
	}
	if err := h.Record(ctx, steps, time.Now()); err != nil {
		t.Fatal(err)
	}
	again, _ := FindSteps(ctx, ss, changepoint.Options{})
	if err := h.Mark(ctx, again); err != nil || again[0].New {
		t.Errorf("after recording: new %v, %v", again[0].New, err)
	}
}

// TestCommonMode: a store's +20% step is the machine's when the floor
// cell of the same runs stepped +20% over the same commits, and the
// store's own when the floor stayed flat.
func TestCommonMode(t *testing.T) {
	for _, floorMoves := range []bool{true, false} {
		h := openTemp(t)
		rng := rand.New(rand.NewPCG(3, 3))
		for i := 0; i < 30; i++ {
			level, floor := 100.0, 30.0
			if i >= 15 {
				level *= 1.2
				if floorMoves {
					floor *= 1.2
				}
			}
			cells := map[string]float64{
				"Issuer/impl=rcu/threads=1":        level * (1 + 0.02*(2*rng.Float64()-1)),
				"Floor/certs=1024/hit=1/threads=1": floor * (1 + 0.02*(2*rng.Float64()-1)),
			}
			if _, err := h.Add(ctx, fmt.Sprint(i), resultsText(fmt.Sprintf("%040x", i+1), i, "ci", cells, 3, false), AddOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		all, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}})
		stores, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}, Cell: regexp.MustCompile("^Issuer/")})
		steps, err := FindSteps(ctx, stores, changepoint.Options{})
		if err != nil || len(steps) != 1 || !steps[0].Regression {
			t.Fatalf("floor moves %v: steps %+v, %v", floorMoves, steps, err)
		}
		CommonMode(steps, all)
		if got := steps[0].Machine != ""; got != floorMoves {
			t.Errorf("floor moves %v: the step is the machine's: %v (%q)", floorMoves, got, steps[0].Machine)
		}
	}
}

// TestInterruptedAddLeavesNothing: an add interrupted while it stores a
// file (5·10^4 values, a quarter of a second of inserts) leaves none of that
// file behind, and the same file can be added afterwards.
func TestInterruptedAddLeavesNothing(t *testing.T) { eachBackend(t, testInterruptedAddLeavesNothing) }

func testInterruptedAddLeavesNothing(t *testing.T, b backend) {
	h := openOn(t, b)
	data := LargeResults(5000, 1)
	interrupted, cancel := context.WithCancel(ctx)
	// The file's row is stamped inside its transaction: cancel 50 ms after.
	stamped := func() time.Time {
		time.AfterFunc(50*time.Millisecond, cancel)
		return time.Now()
	}
	_, err := h.Add(interrupted, "large.txt", data, AddOptions{Now: stamped})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted add: %v, want context.Canceled", err)
	}
	if s := stats(t, h); s.Files+s.Runs+s.Samples != 0 {
		t.Errorf("an interrupted add left %+v", s)
	}
	a, err := h.Add(ctx, "large.txt", data, AddOptions{})
	if err != nil || a.Duplicate || a.Samples != 50000 {
		t.Errorf("adding the file after the interrupted add: %+v, %v", a, err)
	}
}

// TestOneCommitOneName: an abbreviation, a binary's twelve-character
// stamp and the full id are one commit; a dirty build and a ref name no
// repository resolves are refused. They became three commits of one, and
// a step sat between a commit and its dirty self.
func TestOneCommitOneName(t *testing.T) { eachBackend(t, testOneCommitOneName) }

func testOneCommitOneName(t *testing.T, b backend) {
	h := openOn(t, b)
	full := "1136b2ac4f8a0000000000000000000000000000"
	cells := map[string]float64{"Issuer/impl=rcu/threads=1": 100}
	add := func(name, commit string, resolve func(string) (string, bool)) error {
		_, err := h.Add(ctx, name, resultsText(commit, 1, "m", cells, 3, false), AddOptions{ResolveCommit: resolve})
		return err
	}
	if err := add("full.txt", full, nil); err != nil {
		t.Fatal(err)
	}
	if err := add("short.txt", "1136b2a", nil); err != nil {
		t.Fatalf("an abbreviation of a commit in the history: %v", err)
	}
	git := func(name string) (string, bool) { return full, name == "HEAD" }
	if err := add("head.txt", "HEAD", git); err != nil {
		t.Fatalf("a ref name git resolves: %v", err)
	}
	for name, commit := range map[string]string{"dirty.txt": "1136b2ac4f8a-dirty", "ref.txt": "main", "unknown.txt": "feedbee"} {
		err := add(name, commit, nil)
		if !errors.Is(err, ErrDirty) && !errors.Is(err, ErrBadCommit) {
			t.Errorf("%s (%s): %v, want refused", name, commit, err)
		}
	}
	st, err := h.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Commits != 1 {
		t.Errorf("%d commits, want 1", st.Commits)
	}
}
