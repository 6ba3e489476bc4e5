package campaign

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// look runs the looks within the budget and returns the report and
// every cell's windows.
func (c *Campaign) look(ctx context.Context, r *ab.Runner, start time.Time, counting [2]abcount.Arm) (*compare.Report, map[string][]compare.Window, error) {
	windows := make(map[string][]compare.Window)
	var instrWarning string
	var lastLook, lastMeasuring time.Duration
	var lastCells int
	var stopped string // why no further look was measured, where -budget said so
	looks := compare.Looks{Rounds: c.rounds(), Max: c.Looks, Next: func(look int, undecided []string) bool {
		if c.TimeOff != "" {
			return false // one round named the cells; time decides nothing
		}
		// The next look measures only the undecided cells: its windows take
		// the last look's measuring time scaled by how many cells it
		// measures; its rounds' set-up (layouts, arm processes) does not
		// shrink with the cells.
		next := lastLook - lastMeasuring + lastMeasuring*time.Duration(len(undecided))/time.Duration(max(lastCells, 1))
		if c.Budget > 0 && time.Since(start)+next > c.Budget {
			stopped = fmt.Sprintf("%d cells undecided after look %d: another look (about %s) would end past -budget %s; what the counts decide stands, the rest is INCONCLUSIVE (-budget 0: no limit)",
				len(undecided), look-1, next.Round(time.Second), c.Budget)
			c.logf("%s", stopped)
			return false
		}
		c.logf("%d cells undecided after look %d; measuring %d more rounds of them", len(undecided), look-1, c.Rounds)
		return true
	}}
	var counted countVerdicts // the counts' verdicts, once counted after the first look
	looks.Settled = func(rep *compare.Report, undecided []string) []string {
		var out []string
		if !c.Strict {
			out = compare.SettledByCounts(rep, undecided, counted.all, abcount.CountUnits(c.PredictAt()))
		}
		// A count the project did not declare is shown, never gated:
		// another look of it is time for nothing.
		for _, name := range undecided {
			if n, _ := strconv.Atoi(records.NameKey(name, "threads")); !slices.Contains(c.At, max(n, 1)) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
		return out
	}
	rep, err := compare.Sequential(c.Thresholds, looks, func(names []string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
		match := c.Only
		if names != nil {
			match = MatchNames(names)
		}
		t0, m0 := time.Now(), r.Measuring
		cells, arms, cores, err := r.Run(ctx, match, first)
		lastLook, lastMeasuring, lastCells = time.Since(t0), r.Measuring-m0, len(cells)
		for name, a := range arms {
			windows[name] = append(windows[name], a.Windows...)
		}
		if err == nil && first == 0 && (c.Instructions || c.Locks) {
			// After the first look, whose speeds size the counts; the
			// later looks' budget then knows the time they took.
			t1 := time.Now()
			if err := c.count(ctx, counting, cells, &instrWarning); err != nil {
				return nil, nil, 0, err
			}
			c.counted = time.Since(t1)
			var names []string
			for _, cell := range cells {
				names = append(names, cell.Name)
			}
			counted = c.judgeCounts(names, names, c.counts, c.traffic, c.profiles, harness.Cores())
		}
		return cells, arms, cores, err
	})
	if err != nil {
		return nil, nil, err
	}
	c.finish(rep, r.Measuring, instrWarning, stopped)
	rep.Warnings = append(rep.Warnings, otherPairs(windows, c.Rounds)...)
	return rep, windows, nil
}

// otherPairs are a sentence for each cell some of whose windows ran on
// another pair of cores than the rest of their look (ab.OtherPairs).
func otherPairs(windows map[string][]compare.Window, rounds int) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(windows)) {
		if s := ab.OtherPairs(name, windows[name], rounds); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// finish adds to the report of the looks the counts' verdicts, what cut
// the campaign short (a count that could not be taken, -budget), and to
// each undecided cell the time its missing rounds would take, at the
// time a cell's round took (measuring in all).
func (c *Campaign) finish(rep *compare.Report, measuring time.Duration, instrWarning, stopped string) {
	var names []string
	for _, cell := range rep.Cells {
		names = append(names, cell.Name)
	}
	c.addCounts(rep, c.judgeCounts(names, names, c.counts, c.traffic, c.profiles, harness.Cores()), harness.Cores())
	if c.TimeOff != "" {
		rep.Untimed = c.Untimed
		rep.Warnings = append(rep.Warnings, "time measured one round, to name the cells, and decides nothing: "+c.TimeOff)
	}
	if instrWarning != "" {
		rep.Warnings = append(rep.Warnings, instrWarning)
	}
	if stopped != "" {
		rep.Warnings = append(rep.Warnings, stopped)
	}
	if c.Locks && c.noLocks != "" {
		rep.Warnings = append(rep.Warnings, "no lock verdict: "+c.noLocks+" (-locks=false skips the lock profiles)")
	}
	perCellRound := measuring / time.Duration(max(1, totalCellRounds(rep)))
	for i := range rep.Cells {
		cell := &rep.Cells[i]
		if c.TimeOff == "" && cell.Verdict == compare.Inconclusive && cell.NeedRounds > cell.Rounds {
			cell.Reason += fmt.Sprintf(" (~%s more)", (time.Duration(cell.NeedRounds-cell.Rounds) * perCellRound).Round(time.Second))
		}
	}
}

// within are the constants the campaign predicts with within the cores:
// the machine's own record (Own), else the runner's.
func (c *Campaign) within() predict.Measured {
	if c.Own != nil {
		return c.Own.Within(c.ownFrom)
	}
	return predict.RunnerFixed
}

// countVerdicts are the verdicts of the counts beside time: instructions
// (which also explain the time verdicts), traffic, the lock units and the
// prediction, with why a cell has no prediction.
type countVerdicts struct {
	instr, all []compare.CellVerdict
	predicted  abcount.Predicted
	why        []string
}

// predictedCounts are the counts the prediction is gated at: the declared
// ones past the cores, or, where none is, the farthest it reaches, shown.
func (c *Campaign) predictedCounts(cores int) []int {
	var out []int
	for _, n := range c.At {
		if n > cores {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []int{c.PredictAt()}
	}
	return out
}

// judgeCounts judges the counts of the cells each names (counted:
// instructions and traffic; profiled: lock profiles and the prediction)
// on a machine of cores cores. The prediction gates every predicted cell
// at the declared counts past the cores, and decides alone a cell whose
// lock units trade one cause for another (abcount.Predicted.WeighTrades).
func (c *Campaign) judgeCounts(counted, profiled []string, counts abcount.Counts, traffic abcount.Traffic, profiles abcount.Profiles, cores int) countVerdicts {
	var v countVerdicts
	if counts != nil {
		v.instr = abcount.InstructionVerdicts(c.Thresholds, counted, counts)
	}
	v.all = append(append(v.all, v.instr...), abcount.TrafficVerdicts(c.Thresholds, counted, traffic)...)
	if profiles == nil {
		return v
	}
	locked := abcount.LockVerdicts(c.Thresholds, profiled, profiles)
	// Every cell counted or profiled is predicted, or told why not.
	v.predicted = abcount.Predictions(union(counted, profiled), counts, profiles, c.PredictAt(), cores, c.within())
	gated := c.predictedCounts(cores)
	v.all = append(v.all, v.predicted.WeighTrades(c.Thresholds, locked, gated[len(gated)-1])...)
	v.all = append(v.all, v.predicted.Verdicts(c.Thresholds, profiled, gated...)...)
	for _, why := range v.predicted.Why {
		v.why = append(v.why, fmt.Sprintf("no prediction at %d threads: %s", c.PredictAt(), why))
	}
	return v
}

// addCounts adds the counts' verdicts to rep and decides it at the
// declared counts (compare.Report.Decide).
func (c *Campaign) addCounts(rep *compare.Report, v countVerdicts, cores int) {
	abcount.Explain(rep, v.instr)
	rep.Add(v.all...)
	rep.Warnings = append(rep.Warnings, v.why...)
	c.predicted = v.predicted
	rep.Decide(compare.Rules{At: c.At, Cores: cores, Strict: c.Strict, Need: abcount.CountUnits(c.PredictAt()), Miss: predict.Miss,
		PredictedAt: v.predicted.At(c.Thresholds), Held: func(n int) string { return predict.HeldAt(n, cores) }})
}

// count takes the counts that sit beside time: instructions/op and the
// lock profile of every 1-thread cell, in both revisions. A count that
// cannot be had leaves a warning (time still decides); an interrupt ends
// the comparison.
func (c *Campaign) count(ctx context.Context, counting [2]abcount.Arm, cells []*records.Cell, instrWarning *string) error {
	counted := abcount.Cells(cells, c.Commands)
	progress := func(what string) func(abcount.Cell) {
		return func(cell abcount.Cell) {
			c.logf("counting %s of %s in both revisions (%d ops under callgrind)", what, cell.Name, cell.Ops)
		}
	}
	if c.Instructions {
		var err error
		if c.counts, c.traffic, err = abcount.Instructions(ctx, progress("instructions"), counting[0], counting[1], counted, c.CorpusSeed); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			*instrWarning = fmt.Sprintf("no instruction verdict: %v (-instructions=false skips the counts)", err)
			c.logf("%s", *instrWarning)
		}
	}
	if c.Locks && c.noLocks == "" {
		var err error
		lockArms := counting
		for side := range lockArms {
			lockArms[side].Bin = c.lockBins[side]
		}
		if c.profiles, err = abcount.Locks(ctx, progress("the lock profile"), lockArms[0], lockArms[1], counted, c.CorpusSeed); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.noLocks = err.Error()
			c.logf("no lock verdict: %s", c.noLocks)
		}
	}
	return nil
}

// totalCellRounds counts the rounds behind every cell's verdict.
func totalCellRounds(rep *compare.Report) int {
	n := 0
	for _, c := range rep.Cells {
		n += c.Rounds
	}
	return n
}

// MatchNames is a -match pattern that matches exactly the cells named.
func MatchNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// union is a's names, then b's not among them.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
