package history

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// AddOptions say what a results file does not: the commit, when it was
// made, and the machine. A non-empty field wins over the file's own.
type AddOptions struct {
	Commit     string
	CommitTime time.Time
	Machine    string
	// CommitTimeOf looks up when a commit was made (the CLI asks git);
	// when it cannot, the run's date stands in.
	CommitTimeOf func(commit string) (time.Time, bool)
	// ResolveCommit gives the full object name of a commit name — an
	// abbreviation, a ref name — where a repository is at hand (the CLI
	// asks git); false when it cannot. See ResolveCommit.
	ResolveCommit func(name string) (string, bool)
	// Now stamps the file as added; time.Now when nil.
	Now func() time.Time
}

// Added says what one file added.
type Added struct {
	File      string
	Duplicate bool // the same bytes were added before: nothing was done (Commits: what they were filed under)
	Runs      int  // distinct commit, machine and configuration
	Samples   int  // values stored
	Aside     int  // results the run set aside (quarantined), not stored
	Commits   []string
	Warnings  []error

	notTimes int // time values that were no measurement, not stored
}

// ErrNoCommit is returned for results that name no commit when none was
// given.
var ErrNoCommit = errors.New("no commit")

// ErrNoTime is returned for results whose commit has no known time: no
// date: line, no -commit-time, and git does not know the commit.
var ErrNoTime = errors.New("no time")

// Add stores the results in data (perfrun's, or any go test -bench
// output) under name, in one transaction: all of the file or nothing. A
// file whose bytes were added before is a no-op.
func (h *DB) Add(ctx context.Context, name string, data []byte, o AddOptions) (Added, error) {
	out := Added{File: name}
	set, err := records.Read(bytes.NewReader(data), name, "")
	if err != nil {
		return out, err
	}
	out.Warnings = set.Warnings
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}

	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return out, err
	}
	defer tx.Rollback()
	// A second writer of the same bytes waits here for the first one's
	// transaction, then finds the file stored.
	var fileID int64
	err = tx.QueryRowContext(ctx, h.d.q(`INSERT INTO files (digest, name, added) VALUES (?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING id`),
		digest, name, now().UTC().Format(time.RFC3339)).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		out.Duplicate = true
		// What the stored copy was filed under, so a caller who meant
		// another commit hears that nothing changed.
		out.Commits, err = h.storedCommits(ctx, tx, digest)
		return out, err
	}
	if err != nil {
		return out, err
	}
	w := &writer{ctx: ctx, tx: tx, d: h.d, fileID: fileID, runs: map[string]int64{}, series: map[seriesKey]int64{}, set: set}
	if w.batch, err = tx.PrepareContext(ctx, h.d.q(insertSamples(batchRows))); err != nil {
		return out, err
	}
	defer w.batch.Close()
	if err := w.allSeries(o); err != nil {
		return out, err
	}
	if err := w.addRecords(&out, o); err != nil {
		return out, err
	}
	if err := w.flush(); err != nil {
		return out, err
	}
	out.Runs = len(w.runs)
	out.Commits = w.commits
	if out.notTimes > 0 {
		out.Warnings = append(out.Warnings, fmt.Errorf("%s: %d time values of 0 or less (no measurement) not stored", name, out.notTimes))
	}
	if out.Samples == 0 {
		return out, fmt.Errorf("%s: every result was set aside; nothing to add", name)
	}
	return out, tx.Commit()
}

// storedCommits are the commits a stored file's runs were filed under.
func (h *DB) storedCommits(ctx context.Context, tx *sql.Tx, digest string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, h.d.q(`SELECT DISTINCT r.commit_id FROM runs r JOIN files f ON f.id = r.file_id WHERE f.digest = ? ORDER BY r.commit_id`), digest)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// addRecords stores every record the run kept, counting them in out; a
// set-aside record is counted, not stored.
func (w *writer) addRecords(out *Added, o AddOptions) error {
	for _, rec := range w.set.Records {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		if records.AsideWhy(rec) != "" {
			out.Aside++
			continue
		}
		run, err := w.run(rec, o)
		if err != nil {
			return err
		}
		for _, v := range rec.Values {
			if notATime(v.Unit, v.Value) {
				out.notTimes++
				continue
			}
			series, err := w.seriesID(seriesKey{run.machine, cellOf(rec), v.Unit}, better(w.set, v.Unit))
			if err != nil {
				return err
			}
			if err := w.sample(run.id, series, v.Value); err != nil {
				return err
			}
			out.Samples++
		}
	}
	return nil
}

// notATime says a value of a time unit is no measurement: zero,
// negative or not finite. Stored, a control cell's 0 ns/op divided every
// store cell's ratio series by nothing and hid its steps.
func notATime(unit string, v float64) bool {
	return strings.HasPrefix(records.Tidy(unit), "sec/") && !(v > 0 && v < math.Inf(1))
}

type seriesKey struct{ machine, cell, unit string }

// writer is one file's transaction: the runs and series it has found.
type writer struct {
	ctx     context.Context
	tx      *sql.Tx
	d       dialect
	fileID  int64
	set     *records.Set
	batch   *sql.Stmt
	pending []any // run, series and value of samples not yet inserted
	runs    map[string]int64
	series  map[seriesKey]int64
	commits []string
}

// batchRows samples go in one statement: one statement per value spent
// most of an insert in the driver.
const batchRows = 200

func insertSamples(rows int) string {
	return "INSERT INTO samples (run_id, series_id, value) VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", rows), ", ")
}

func (w *writer) sample(run, series int64, value float64) error {
	w.pending = append(w.pending, run, series, value)
	if len(w.pending) == 3*batchRows {
		_, err := w.batch.ExecContext(w.ctx, w.pending...)
		w.pending = w.pending[:0]
		return err
	}
	return nil
}

func (w *writer) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	_, err := w.tx.ExecContext(w.ctx, w.d.q(insertSamples(len(w.pending)/3)), w.pending...)
	w.pending = w.pending[:0]
	return err
}

type runRef struct {
	id      int64
	machine string
}

// run finds or stores the run of a record: its commit, when the commit
// was made, its machine and configuration.
func (w *writer) run(rec *benchfmt.Result, o AddOptions) (runRef, error) {
	var config strings.Builder
	for _, kv := range rec.Config {
		// Which cells follow (designs or the machine's reference) is not
		// the run's setting: one run holds both.
		if kv.File && kv.Key != records.CellsKey {
			fmt.Fprintf(&config, "%s: %s\n", kv.Key, kv.Value)
		}
	}
	machine := machineOf(rec, o)
	key := machine + "\x00" + o.Commit + "\x00" + config.String()
	if id, ok := w.runs[key]; ok {
		return runRef{id, machine}, nil
	}
	file, line := rec.Pos()
	commit := cmp.Or(o.Commit, records.ConfigOf(rec, "commit"), records.ConfigOf(rec, "perfrun"))
	if commit == "" || commit == "unknown" {
		return runRef{}, fmt.Errorf("%s:%d: %w: the results carry no commit: or perfrun: line; say which with -commit", file, line, ErrNoCommit)
	}
	if err := CheckCommit(commit); err != nil {
		return runRef{}, fmt.Errorf("%s:%d: %w", file, line, err)
	}
	full, err := w.resolve(commit, o.ResolveCommit)
	if err != nil {
		return runRef{}, fmt.Errorf("%s:%d: %w", file, line, err)
	}
	commit = full
	date := records.ConfigOf(rec, "date")
	runTime, dateErr := time.Parse(time.RFC3339, date)
	when := o.CommitTime
	if when.IsZero() && o.CommitTimeOf != nil {
		when, _ = o.CommitTimeOf(commit)
	}
	if when.IsZero() {
		when = runTime
	}
	if when.IsZero() && date != "" && dateErr != nil {
		return runRef{}, fmt.Errorf("%s:%d: %w for commit %s: its date: line %.40q is no RFC 3339 time and git does not know the commit; say when with -commit-time", file, line, ErrNoTime, commit, date)
	}
	if when.IsZero() {
		return runRef{}, fmt.Errorf("%s:%d: %w for commit %s: the results carry no date: line and git does not know it; say when with -commit-time", file, line, ErrNoTime, commit)
	}
	if runTime.IsZero() {
		runTime = when
	}
	cores, _ := strconv.Atoi(records.ConfigOf(rec, "cores"))
	corpus := records.ConfigOf(rec, "corpus")
	var id int64
	err = w.tx.QueryRowContext(w.ctx, w.d.q(`INSERT INTO runs (file_id, commit_id, commit_time, run_time, machine, cores, go, corpus, perfrun, config)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		w.fileID, commit, stamp(when), stamp(runTime), machine, cores, records.ConfigOf(rec, "go"), corpus, records.ConfigOf(rec, "perfrun"), config.String()).Scan(&id)
	if err != nil {
		return runRef{}, err
	}
	w.runs[key] = id
	w.commits = append(w.commits, commit)
	return runRef{id, machine}, nil
}

// stamp formats a time so that text order is time order.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// machineOf is the machine a record is filed under.
func machineOf(rec *benchfmt.Result, o AddOptions) string {
	if o.Machine != "" {
		return o.Machine
	}
	return records.MachineOf(rec)
}

// cellOf is the cell a record is filed under: its name, and its package
// where it has one.
func cellOf(rec *benchfmt.Result) string {
	cell := string(rec.Name.Full())
	if pkg := records.ConfigOf(rec, "pkg"); pkg != "" {
		cell = pkg + ":" + cell
	}
	return cell
}

// allSeries finds or stores every series of the file first, in one order
// that every writer shares: writers that create the same new series at
// once then wait for each other in turn and never in a circle.
func (w *writer) allSeries(o AddOptions) error {
	var keys []seriesKey
	for _, rec := range w.set.Records {
		if records.AsideWhy(rec) != "" {
			continue
		}
		for _, v := range rec.Values {
			if !notATime(v.Unit, v.Value) {
				keys = append(keys, seriesKey{machineOf(rec, o), cellOf(rec), v.Unit})
			}
		}
	}
	for _, k := range inOrder(keys) {
		if _, err := w.seriesID(k, better(w.set, k.unit)); err != nil {
			return err
		}
	}
	return nil
}

// inOrder sorts series keys into the one order writers create them in,
// each once.
func inOrder(keys []seriesKey) []seriesKey {
	slices.SortFunc(keys, func(a, b seriesKey) int {
		return cmp.Or(strings.Compare(a.machine, b.machine), strings.Compare(a.cell, b.cell), strings.Compare(a.unit, b.unit))
	})
	return slices.Compact(keys)
}

// seriesID finds or stores a series.
func (w *writer) seriesID(k seriesKey, better int) (int64, error) {
	if id, ok := w.series[k]; ok {
		return id, nil
	}
	var id int64
	err := w.tx.QueryRowContext(w.ctx, w.d.q(`INSERT INTO series (machine, cell, unit, better) VALUES (?, ?, ?, ?)
		ON CONFLICT (machine, cell, unit) DO NOTHING RETURNING id`), k.machine, k.cell, k.unit, better).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = w.tx.QueryRowContext(w.ctx, w.d.q(`SELECT id FROM series WHERE machine = ? AND cell = ? AND unit = ?`), k.machine, k.cell, k.unit).Scan(&id)
	}
	if err != nil {
		return 0, err
	}
	w.series[k] = id
	return id, nil
}

// better is +1 where higher values of a unit are better (the file's unit
// metadata, else a rate per second), -1 where lower are.
func better(s *records.Set, unit string) int {
	if b := s.Units.GetBetter(unit); b != 0 {
		return b
	}
	if strings.HasSuffix(unit, "/s") {
		return 1
	}
	return -1
}
