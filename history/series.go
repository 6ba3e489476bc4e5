package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/records"
)

// Series is one cell's values in one unit on one machine, by commit.
// Machines are never mixed: the same cell on two machines is two series.
type Series struct {
	ID                  int64
	Machine, Cell, Unit string
	Better              int // +1 higher is better, -1 lower
	Cores               int // the most cores of any of its runs, 0 if unknown
	Points              []Point
	// Ties counts its points that share a commit time with the one before
	// and that Filter.Order could not order: they stand in hash order,
	// which may not be the history's.
	Ties int
	// Over, when set, names the reference cell whose median at each commit
	// divides the values (OverReference): a ratio, the machine's speed
	// taken out.
	Over string
	over *Series // the reference series Over names
}

// Oversubscribed reports whether the series' cell runs more threads than
// its machine has cores: it time-slices, and no verdict is about it.
func (s *Series) Oversubscribed() bool {
	threads, _ := strconv.Atoi(records.NameKey(s.Cell, "threads"))
	return s.Cores > 0 && threads > s.Cores
}

// Name says which series it is: cell, unit and machine.
func (s *Series) Name() string {
	if s.Over != "" {
		return s.Cell + " " + s.Unit + " over " + s.Over + " @ " + s.Machine
	}
	return s.Cell + " " + s.Unit + " @ " + s.Machine
}

// index is the index of commit's point, -1 if the series has none.
func (s *Series) index(commit string) int {
	return slices.IndexFunc(s.Points, func(p Point) bool { return p.Commit == commit })
}

// Point is every value of one commit: all of its runs' rounds.
type Point struct {
	Commit string
	Time   time.Time
	Values []float64
}

// Summary is the point's median with its confidence interval, as
// benchstat computes them.
func (p Point) Summary() records.Summary { return records.Summarize(p.Values) }

// Filter chooses series; a nil or empty field chooses all.
type Filter struct {
	Machine *regexp.Regexp
	Cell    *regexp.Regexp
	Units   []string // as written (ns/op) or tidied (sec/op)
	// Order orders two commits that share a commit time (a rebase gives
	// many one), as the repository does: negative where a came first. nil,
	// or 0 for commits it does not know: by hash, and the series counts
	// them in Ties.
	Order func(a, b string) int
}

func (f Filter) keeps(machine, cell, unit string) bool {
	if f.Machine != nil && !f.Machine.MatchString(machine) {
		return false
	}
	if f.Cell != nil && !f.Cell.MatchString(cell) {
		return false
	}
	if len(f.Units) > 0 && !slices.ContainsFunc(f.Units, func(u string) bool { return records.Tidy(u) == unit }) {
		return false
	}
	return true
}

// Series reads the series a filter chooses, each with its points in
// commit order (the time each commit was made, then its name), sorted by
// machine, cell and unit.
func (h *DB) Series(ctx context.Context, f Filter) ([]*Series, error) {
	rows, err := h.db.QueryContext(ctx, `SELECT id, machine, cell, unit, better FROM series ORDER BY machine, cell, unit`)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*Series)
	var out []*Series
	for rows.Next() {
		s := new(Series)
		if err := rows.Scan(&s.ID, &s.Machine, &s.Cell, &s.Unit, &s.Better); err != nil {
			rows.Close()
			return nil, err
		}
		if f.keeps(s.Machine, s.Cell, s.Unit) {
			byID[s.ID] = s
			out = append(out, s)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(out) == 0 {
		return out, err
	}
	// Only the chosen series' samples are read: their ids go in as one
	// JSON array, however many there are.
	ids := make([]int64, len(out))
	for i, s := range out {
		ids[i] = s.ID
	}
	chosen, _ := json.Marshal(ids)
	runs, err := h.runs(ctx)
	if err != nil {
		return nil, err
	}
	// The samples alone, in no order: joined and sorted here, a read
	// scans three numbers a value rather than two strings besides.
	of := make(map[*Series][]seriesSample, len(out))
	err = h.each(ctx, `SELECT series_id, run_id, value FROM samples WHERE `+h.d.idsIn("series_id"), []any{string(chosen)}, func(r *sql.Rows) error {
		var sid, rid int64
		var v float64
		if err := r.Scan(&sid, &rid, &v); err != nil {
			return err
		}
		s := byID[sid]
		of[s] = append(of[s], seriesSample{runs[rid], v})
		return nil
	})
	if err != nil {
		return nil, err
	}
	order := func(a, b string) int { return 0 }
	if f.Order != nil {
		order = f.Order
	}
	for _, s := range out {
		s.fill(of[s], order)
	}
	return out, nil
}

// A seriesSample is one value of a series with the run it came from.
type seriesSample struct {
	run   *runInfo
	value float64
}

// fill makes s's points of its samples: a point a commit, in the order
// of their runs' times, commits of one time in order's order (else their
// names'), and counts the commits whose time and order tie (Ties).
func (s *Series) fill(samples []seriesSample, order func(a, b string) int) {
	slices.SortStableFunc(samples, func(a, b seriesSample) int {
		if c := a.run.when.Compare(b.run.when); c != 0 || a.run.commit == b.run.commit {
			return cmp.Or(c, cmp.Compare(a.run.id, b.run.id))
		}
		// Only commits of one time are asked of the order.
		return cmp.Or(order(a.run.commit, b.run.commit), strings.Compare(a.run.commit, b.run.commit))
	})
	at := make(map[string]int)
	for _, x := range samples {
		s.Cores = max(s.Cores, x.run.cores)
		i, ok := at[x.run.commit]
		if !ok {
			i = len(s.Points)
			at[x.run.commit] = i
			s.Points = append(s.Points, Point{Commit: x.run.commit, Time: x.run.when})
		}
		s.Points[i].Values = append(s.Points[i].Values, x.value)
	}
	for i := 1; i < len(s.Points); i++ {
		a, b := s.Points[i-1], s.Points[i]
		if a.Time.Equal(b.Time) && order(a.Commit, b.Commit) == 0 {
			s.Ties++
		}
	}
}

// runInfo is what a series' point needs of its run.
type runInfo struct {
	id     int64
	commit string
	when   time.Time
	cores  int
}

// runs reads every run's commit, its time and the cores it ran on.
func (h *DB) runs(ctx context.Context) (map[int64]*runInfo, error) {
	out := make(map[int64]*runInfo)
	err := h.each(ctx, `SELECT id, commit_id, commit_time, cores FROM runs`, nil, func(r *sql.Rows) error {
		x := new(runInfo)
		var stamped string
		if err := r.Scan(&x.id, &x.commit, &stamped, &x.cores); err != nil {
			return err
		}
		x.when, _ = time.Parse(time.RFC3339, stamped)
		out[x.id] = x
		return nil
	})
	return out, err
}

// Stats counts what a history holds.
type Stats struct {
	Files, Runs, Commits, Series, Samples int
	Machines                              []string
	// Fleet is each machine's share, in the order of Machines.
	Fleet []MachineStats
}

// MachineStats is what one machine measured.
type MachineStats struct {
	Machine         string
	Series, Commits int
	Last            time.Time // the newest commit it measured
}

// Stats counts the history's files, runs, commits, series and samples,
// and names its machines.
func (h *DB) Stats(ctx context.Context) (Stats, error) {
	var s Stats
	err := h.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM runs),
		(SELECT count(DISTINCT commit_id) FROM runs), (SELECT count(*) FROM series), (SELECT count(*) FROM samples)`).
		Scan(&s.Files, &s.Runs, &s.Commits, &s.Series, &s.Samples)
	if err != nil {
		return s, err
	}
	rows, err := h.db.QueryContext(ctx, `SELECT r.machine, count(DISTINCT r.commit_id), max(r.commit_time),
		(SELECT count(*) FROM series s WHERE s.machine = r.machine) FROM runs r GROUP BY r.machine`)
	if err != nil {
		return s, err
	}
	defer rows.Close()
	for rows.Next() {
		var m MachineStats
		var last string
		if err := rows.Scan(&m.Machine, &m.Commits, &last, &m.Series); err != nil {
			return s, err
		}
		m.Last, _ = time.Parse(time.RFC3339, last)
		s.Fleet = append(s.Fleet, m)
	}
	slices.SortFunc(s.Fleet, func(a, b MachineStats) int { return strings.Compare(a.Machine, b.Machine) })
	for _, m := range s.Fleet {
		s.Machines = append(s.Machines, m.Machine)
	}
	return s, rows.Err()
}

// ShortCommit is a commit as reports print it: twelve characters of a
// hash, and any suffix (-dirty) kept.
func ShortCommit(c string) string {
	hash, rest, _ := strings.Cut(c, "-")
	if len(hash) > 12 {
		hash = hash[:12]
	}
	if rest != "" {
		return hash + "-" + rest
	}
	return hash
}
