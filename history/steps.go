package history

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/perfrun/perfrun/history/changepoint"
	"github.com/perfrun/perfrun/records"
)

// Step is a change point found in a series: between two commits, the
// series' level moved.
type Step struct {
	Series *Series
	// Index is the first point after the step; Before and After the
	// commits on either side.
	Index         int
	Before, After string
	P             float64 // the permutation test's p-value
	// From and To are the medians of the segments either side (of the
	// points' medians), and Shift the Hodges–Lehmann shift between them
	// with its 95% interval, in the series' unit.
	From, To float64
	Shift    changepoint.Step
	// Lo and Hi bound the segments either side: points [Lo, Index) and
	// [Index, Hi).
	Lo, Hi int
	// Regression says the step went the worse way for its unit.
	Regression bool
	// Machine, when not empty, says a reference cell of the same runs —
	// a control or floor cell, which no store change moves — stepped the
	// same way over the same commits: the machine or the process moved,
	// not (only) the store.
	Machine string
	// New says no step near it was recorded before (Mark, Record).
	New bool
	// Shared, when not empty, says other machines' series of the same
	// cell stepped the same way at the same time (Fleet).
	Shared string
}

// Relative is the step as a fraction of the level before it, with its
// interval; NaN where the level before was 0.
func (s Step) Relative() (shift, low, high float64) {
	if s.From == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	f := math.Abs(s.From)
	return s.Shift.Shift / f, s.Shift.Low / f, s.Shift.High / f
}

// Medians are a series' points' medians, in order: what its steps are
// found in.
func (s *Series) Medians() []float64 {
	x := make([]float64, len(s.Points))
	for i, p := range s.Points {
		x[i] = records.Median(p.Values)
	}
	return x
}

// FindSteps finds the steps of every series, on every core; o.Seed is
// mixed with each series' name, so a series gives the same answer however
// it was chosen.
func FindSteps(ctx context.Context, series []*Series, o changepoint.Options) ([]Step, error) {
	found := make([][]Step, len(series))
	o.Done = ctx.Done() // an interrupt stops a series' search mid-way
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				found[i] = stepsOf(series[i], o)
			}
		})
	}
	for i := range series {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return slices.Concat(found...), nil
}

func stepsOf(s *Series, o changepoint.Options) []Step {
	x := s.Medians()
	changes := changepoint.Detect(x, seeded(s, o))
	var out []Step
	for k, c := range changes {
		lo, hi := 0, len(x)
		if k > 0 {
			lo = changes[k-1].Index
		}
		if k+1 < len(changes) {
			hi = changes[k+1].Index
		}
		out = append(out, stepAt(s, x, c, lo, hi))
	}
	return out
}

// seeded mixes the series' name into o.Seed.
func seeded(s *Series, o changepoint.Options) changepoint.Options {
	h := fnv.New64a()
	h.Write([]byte(s.Name()))
	o.Seed ^= h.Sum64()
	return o
}

// stepAt is the step c of s, whose medians are x, between the segments
// [lo, c.Index) and [c.Index, hi).
func stepAt(s *Series, x []float64, c changepoint.Change, lo, hi int) Step {
	before, after := x[lo:c.Index], x[c.Index:hi]
	st := Step{Series: s, Index: c.Index, Lo: lo, Hi: hi, Before: s.Points[c.Index-1].Commit, After: s.Points[c.Index].Commit,
		P: c.P, From: records.Median(before), To: records.Median(after), Shift: changepoint.ShiftOf(before, after)}
	st.Regression = st.Shift.Shift*float64(s.Better) < 0
	return st
}

// NearestSteps are every series' best split of its whole length
// (changepoint.Nearest), and every store series' over its reference
// (OverReference), at least minShift of the level before them, passing
// o.Alpha or not, the smallest p-value first: how near a history that
// shows no step came to one.
func NearestSteps(ctx context.Context, series, refs []*Series, o changepoint.Options, minShift float64) []Step {
	var out []Step
	o.Done = ctx.Done()
	for _, s := range append(slices.Clip(series), OverReference(series, refs)...) {
		x := s.Medians()
		c, ok := changepoint.Nearest(x, seeded(s, o))
		if !ok || ctx.Err() != nil {
			continue
		}
		st := stepAt(s, x, c, 0, len(x))
		if rel, _, _ := st.Relative(); !math.IsNaN(rel) && math.Abs(rel) >= minShift {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b Step) int { return cmp.Compare(a.P, b.P) })
	return out
}

// near is how many commits a step may move between two searches (as more
// commits arrive) and still be the one recorded before.
const near = 2

// Mark sets New on every step with no recorded step of its series in the
// same direction within two commits of it. It writes nothing.
func (h *DB) Mark(ctx context.Context, steps []Step) error {
	known := make(map[int64][]recorded)
	for i := range steps {
		st := &steps[i]
		id := st.Series.ID
		if _, ok := known[id]; !ok {
			r, err := h.recorded(ctx, id)
			if err != nil {
				return err
			}
			known[id] = r
		}
		st.New = true
		for _, r := range known[id] {
			at := st.Series.index(r.after)
			if at >= 0 && abs(at-st.Index) <= near && (r.shift > 0) == (st.Shift.Shift > 0) {
				st.New = false
				break
			}
		}
	}
	return nil
}

type recorded struct {
	after string
	shift float64
}

func (h *DB) recorded(ctx context.Context, series int64) ([]recorded, error) {
	rows, err := h.db.QueryContext(ctx, h.d.q(`SELECT after_commit, shift FROM steps WHERE series_id = ?`), series)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []recorded
	for rows.Next() {
		var r recorded
		if err := rows.Scan(&r.after, &r.shift); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Record marks the steps (Mark) and stores the new ones, in one
// transaction, so the next search reports them as known.
func (h *DB) Record(ctx context.Context, steps []Step, now time.Time) error {
	if err := h.Mark(ctx, steps); err != nil {
		return err
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, st := range steps {
		if !st.New {
			continue
		}
		shift, _, _ := st.Relative()
		if math.IsNaN(shift) {
			shift = math.Copysign(1, st.Shift.Shift)
		}
		if _, err := tx.ExecContext(ctx, h.d.q(`INSERT INTO steps (series_id, before_commit, after_commit, shift, first_seen) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (series_id, after_commit) DO NOTHING`), st.Series.ID, st.Before, st.After, shift, stamp(now)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// CommonMode sets Machine on every store step that a reference series of
// the same machine and unit shares: over the same commits before and
// after, the reference shifted the same way, by at least half as much,
// with an interval that excludes no shift. Such a step is what the
// process or the machine did (all of a run's cells move together when a
// process lands on slow memory), and a gate should not count it.
func CommonMode(steps []Step, series []*Series) {
	var refs []*Series
	for _, r := range series {
		if records.IsReferenceName(r.Cell) {
			refs = append(refs, r)
		}
	}
	for i := range steps {
		st := &steps[i]
		if records.IsReferenceName(st.Series.Cell) {
			continue
		}
		rel, _, _ := st.Relative()
		if math.IsNaN(rel) {
			continue
		}
		for _, r := range refs {
			if r.Machine != st.Series.Machine || r.Unit != st.Series.Unit {
				continue
			}
			refRel, sure := shiftOver(r, st)
			if sure && refRel*rel > 0 && math.Abs(refRel) >= math.Abs(rel)/2 {
				st.Machine = fmt.Sprintf("%s moved %+.0f%% over the same commits", r.Cell, 100*refRel)
				break
			}
		}
	}
}

// shiftOver is how far r moved, relative to its level before, between the
// commits before st and those after it (its segments' points), and
// whether its interval excludes no shift; false where r has fewer than 2
// points on either side.
func shiftOver(r *Series, st *Step) (rel float64, sure bool) {
	before, after := commitSet(st.Series.Points[st.Lo:st.Index]), commitSet(st.Series.Points[st.Index:st.Hi])
	var b, a []float64
	for _, p := range r.Points {
		if before[p.Commit] {
			b = append(b, records.Median(p.Values))
		} else if after[p.Commit] {
			a = append(a, records.Median(p.Values))
		}
	}
	from := records.Median(b)
	if len(b) < 2 || len(a) < 2 || from == 0 {
		return 0, false
	}
	sh := changepoint.ShiftOf(b, a)
	return sh.Shift / math.Abs(from), sh.Low*sh.High > 0
}

func commitSet(points []Point) map[string]bool {
	m := make(map[string]bool, len(points))
	for _, p := range points {
		m[p.Commit] = true
	}
	return m
}
