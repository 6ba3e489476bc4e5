package abcount

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// Predicted are a comparison's predictions past the cores, by cell, and
// why a profiled cell has none.
type Predicted struct {
	Cells map[string]predict.Prediction
	Why   []string
}

// Predictions predicts base and head of every cell of names that has both
// arms' lock profiles and instruction counts at threads 1 to n: past the
// runner's cores with the fixed constants (predict.Fixed, a server's),
// within them with within (the machine's own, or the runner's:
// hostconstants.For), held to what it measures there. Either way from
// the counts alone, never a window this campaign measured, so a busy host
// moves no prediction. A profiled cell it cannot predict is named in Why
// with what it lacks.
func Predictions(names []string, counts Counts, profiles Profiles, n, cores int, within predict.Measured) Predicted {
	out := Predicted{Cells: make(map[string]predict.Prediction)}
	for _, name := range names {
		if n, err := strconv.Atoi(records.NameKey(name, "threads")); err == nil && n > 1 {
			continue // a prediction starts at a 1-thread cell's counts
		}
		p, ok := profiles[name]
		if !ok {
			out.Why = append(out.Why, name+": no lock profile of both revisions (-locks counts it)")
			continue
		}
		c, ok := counts[name]
		if !ok || len(c[0]) == 0 || len(c[1]) == 0 {
			out.Why = append(out.Why, name+": no instructions/op of both revisions (-instructions counts them)")
			continue
		}
		base, head := p[0].Cell(name, records.Median(c[0])), p[1].Cell(name, records.Median(c[1]))
		pr, err := predict.Change(name, base, head, predict.Threads(n), predict.Fixed)
		if err == nil {
			err = pr.Within(cores, within)
		}
		if err != nil {
			out.Why = append(out.Why, err.Error())
			continue
		}
		out.Cells[name] = pr
	}
	return out
}

// linesFell says whether a prediction's head writes lines other threads
// write less than base, beyond the threshold and MinLockChange: the
// atomics besides the exclusive locks' own (a read lock's reader count
// among them), which no gated unit speaks of where the locks' own rose
// with them. A cause of contention the change made better.
func linesFell(p predict.Prediction, th compare.Thresholds) bool {
	base, head := p.Cells()
	b, h := base.SharedAtomics(), head.SharedAtomics()
	return b-h >= compare.MinLockChange && h < b*(1-th.MinEffect)
}

// BaseTime is the median of the kept windows of both base arms, 0 where
// none was kept.
func BaseTime(windows []compare.Window) float64 {
	return armTime(windows, compare.ArmBase, compare.ArmBase2)
}

// HeadTime is the median of head's kept windows, 0 where none was kept.
func HeadTime(windows []compare.Window) float64 {
	return armTime(windows, compare.ArmHead)
}

func armTime(windows []compare.Window, arms ...string) float64 {
	var v []float64
	for _, w := range windows {
		if w.Aside == "" && slices.Contains(arms, w.Arm) && w.Value > 0 {
			v = append(v, w.Value)
		}
	}
	if len(v) == 0 {
		return 0
	}
	return records.Median(v)
}

// Verdicts are the prediction's verdicts at threshold th at each of at (a
// count it predicted), in the order of names.
func (p Predicted) Verdicts(th compare.Thresholds, names []string, at ...int) []compare.CellVerdict {
	var out []compare.CellVerdict
	for _, name := range names {
		pr, ok := p.Cells[name]
		for _, n := range at {
			if v, predicted := pr.VerdictAt(th, n); ok && predicted {
				out = append(out, v)
			}
		}
	}
	return out
}

// At is a predicted cell's verdict at n threads at threshold th, for
// compare.Rules.PredictedAt.
func (p Predicted) At(th compare.Thresholds) func(design string, n int) (compare.CellVerdict, bool) {
	return func(design string, n int) (compare.CellVerdict, bool) {
		pr, ok := p.Cells[design]
		if !ok {
			return compare.CellVerdict{}, false
		}
		return pr.VerdictAt(th, n)
	}
}

// WeighTrades hands the lock units of every predicted cell that trades one
// cause of contention for another — a gated unit worse beyond the
// threshold, another cause better beyond it (fewer acquisitions, each
// held longer; a read lock's shared line given up for an exclusive lock,
// whole or split in stripes) — to the prediction, which weighs them: the
// units explain the predicted time, which decides. Where the causes all
// move one way, each unit still gates as an exact count, its reason giving
// what the prediction makes of it: how much a longer hold costs at 16
// threads depends on the machine's hand-off, and more held is never less.
// A reason speaks of the prediction at n threads, the count it gates.
func (p Predicted) WeighTrades(th compare.Thresholds, locked []compare.CellVerdict, n int) []compare.CellVerdict {
	out := slices.Clone(locked)
	worse, better := make(map[string]bool), make(map[string]bool)
	for _, v := range out {
		worse[v.Name] = worse[v.Name] || v.Verdict == compare.Regression
		better[v.Name] = better[v.Name] || v.Verdict == compare.Improved || linesFell(p.Cells[v.Name], th)
	}
	for i, v := range out {
		pr, ok := p.Cells[v.Name]
		if !ok || v.Verdict == compare.NotGated || !slices.Contains(records.LockUnits, v.Unit) {
			continue
		}
		ratio, _, _, ok := pr.RatioAt(n)
		if !ok {
			n, ratio = pr.At(), pr.Ratio
		}
		if !(worse[v.Name] && better[v.Name]) {
			if v.Verdict == compare.Regression {
				v.Reason += fmt.Sprintf("; predicted at %d threads: %s a call", n, predict.Percent(ratio))
				out[i] = v
			}
			continue
		}
		if v.Verdict != compare.Pass {
			v.Reason += fmt.Sprintf("; a trade: weighed in the prediction at %d threads, which decides", n)
		}
		v.Verdict = compare.NotGated
		out[i] = v
	}
	return out
}
