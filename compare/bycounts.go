package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// TrafficFloor is the smallest change per operation in a cache-miss or
// system-call count that a verdict takes for a change: one in a hundred
// operations. Below it a count at zero stays at zero and a count that a
// process's addresses move by a few misses stays unchanged.
const TrafficFloor = 0.01

// TrafficVerdict compares a cell's cache misses or system calls per
// operation (records.TrafficUnits), one count per process of each side,
// at th.InstructionsRatio. The simulated cache sees each process's
// addresses, so its counts differ between processes by a few tenths of a
// percent: a REGRESSION needs every head count past every base count by
// the threshold and TrafficFloor, a PASS every head count within them;
// counts whose processes overlap the limit are INCONCLUSIVE.
func TrafficVerdict(name, unit string, old, new []float64, th Thresholds) CellVerdict {
	c := CellVerdict{Name: name, Unit: unit, Verdict: Inconclusive}
	if len(old) == 0 || len(new) == 0 {
		c.Reason = "no count on one side"
		return c
	}
	lo, hi := slices.Min(old), slices.Max(old)
	nlo, nhi := slices.Min(new), slices.Max(new)
	c.Ratio = ratio(records.Median(new), records.Median(old))
	if records.Median(old) == 0 && records.Median(new) != 0 {
		c.Ratio = 0 // no ratio from nothing: shown "—", as a lock's
	}
	what := strings.TrimSuffix(strings.ReplaceAll(unit, "-", " "), "/op")
	span := func(a, b float64) string {
		if a == b {
			return fmt.Sprintf("%.4g", a)
		}
		return fmt.Sprintf("%.4g–%.4g", a, b)
	}
	change := fmt.Sprintf("%s %s -> %s per op", what, span(lo, hi), span(nlo, nhi))
	above := func(v, base float64) bool { return v > base*(1+th.InstructionsRatio)+TrafficFloor }
	below := func(v, base float64) bool { return v < base*(1-th.InstructionsRatio)-TrafficFloor }
	switch {
	case above(nlo, hi):
		c.Verdict, c.Reason = Regression, change+fmt.Sprintf(", past the limit of %+.1f%% and %.2g a op", 100*th.InstructionsRatio, TrafficFloor)
	case below(nhi, lo):
		c.Verdict, c.Reason = Improved, change
	case !above(nhi, lo):
		c.Verdict, c.Reason = Pass, change+", within the limit"
	default:
		c.Reason = change + ": the processes' counts straddle the limit"
	}
	return c
}

// Counted reports whether unit is a count's or a prediction's: exact,
// never a time.
func Counted(unit string) bool { return slices.Contains(exactMetrics, unit) || Predicted(unit) }

// design is the 1-thread cell whose counts speak for the code every
// thread count of name runs.
func design(name string) string { return records.AtThreads(name, 1) }

// countsOf are the verdicts on counts (units Counted) of each design.
func countsOf(counts []CellVerdict) map[string][]CellVerdict {
	out := make(map[string][]CellVerdict)
	for _, c := range counts {
		if Counted(c.Unit) {
			out[design(c.Name)] = append(out[design(c.Name)], c)
		}
	}
	return out
}

// countsFail says whether a count verdict of a design is a REGRESSION:
// its cells fail whatever time says.
func countsFail(of []CellVerdict) bool {
	return slices.ContainsFunc(of, func(c CellVerdict) bool { return c.Verdict == Regression })
}

// SettledByCounts are the names of undecided cells whose counts decide
// them whatever more rounds of time would say: every count of their
// design PASSes (need all there) — time can then only fail them with a
// REGRESSION, which a further look at Pocock's level rarely gives a cell
// it left undecided — or one is a REGRESSION. ab measures no further look
// of them: its time goes to the cells the counts cannot decide.
func SettledByCounts(undecided []string, counts []CellVerdict, need []string) []string {
	of := countsOf(counts)
	var out []string
	for _, name := range undecided {
		if d := of[design(name)]; countsDecide(d, need) || countsFail(d) {
			out = append(out, name)
		}
	}
	return out
}

// PassByCounts decides, at the default rules (every count the cells
// have declared, nothing strict), the time verdicts that could not:
// Decide with need alone.
func (r *Report) PassByCounts(need []string) {
	var at []int
	for _, c := range r.Cells {
		if n := witnessAt(c); n > 0 && !slices.Contains(at, n) {
			at = append(at, n)
		}
	}
	slices.Sort(at)
	r.Decide(Rules{At: at, Need: need})
}

// byCounts decides, where it can, each declared time cell that time could
// not: every count of its design gated (need all there) and none worse,
// and, at n threads, the prediction at n (at 1 thread the instructions)
// not worse either. Then the cell is an IMPROVED by counts where the
// prediction at n improves past the threshold and time leans no slower,
// else a PASS by counts. It
// never stands over time that saw a slowdown wholly past the threshold,
// nor over a cell with no complete round (an arm with no kept sample):
// such a cell stays INCONCLUSIVE and its reason says why. What only time
// sees (memory bandwidth, a cache line two threads share by accident, the
// scheduler) neither verdict promises.
func (r *Report) byCounts(rules Rules) {
	of := countsOf(r.Cells)
	for i := range r.Cells {
		c := &r.Cells[i]
		if Counted(c.Unit) || c.Verdict != Inconclusive {
			continue
		}
		counts := slices.Clone(of[design(c.Name)])
		n := witnessAt(*c)
		var pred *CellVerdict
		if rules.PredictedAt != nil && n > 1 {
			if p, ok := rules.PredictedAt(design(c.Name), n); ok {
				pred = &p
				counts = append(counts, p)
			}
		}
		if !countsDecide(counts, rules.Need) {
			continue
		}
		switch {
		case c.Rounds == 0:
			c.Reason += "; no verdict by counts: no complete round, an arm kept no sample, so time saw nothing the counts could stand for"
			continue
		case c.Lo > 1+r.Threshold:
			c.Reason += fmt.Sprintf("; no verdict by counts: time saw a slowdown wholly past the %.0f%% threshold that no count explains "+
				"(memory bandwidth, a shared cache line, the scheduler, or a disturbed host): measure again", 100*r.Threshold)
			continue
		}
		noise := ""
		if c.Layout > 0 {
			noise = fmt.Sprintf(" at ±%.1f%% a round", 100*c.Layout)
		}
		c.ByCounts = true
		// An improvement by counts needs time to lean the same way: over
		// time that leans slower it is a PASS by counts.
		improved := pred != nil && pred.Verdict == Improved ||
			n == 1 && slices.ContainsFunc(counts, func(v CellVerdict) bool { return v.Unit == records.Instructions && v.Verdict == Improved })
		if improved && c.Ratio <= 1 {
			what := "instructions " + percent(countRatio(counts, records.Instructions)) + " at 1 thread"
			if pred != nil {
				what = pred.Reason
			}
			c.Verdict = Improved
			c.Reason = fmt.Sprintf("by counts: %s; no count worse; time could not decide%s (%s)", what, noise, c.Reason)
			continue
		}
		c.Verdict = Pass
		c.Reason = fmt.Sprintf("by counts: %s; time could not decide%s (%s)", passWhat(counts, pred), noise, c.Reason)
	}
}

// passWhat says what a PASS by counts rests on: every count unchanged, or
// the counts that moved without a verdict against them and what the
// prediction made of the move.
func passWhat(counts []CellVerdict, pred *CellVerdict) string {
	var moved []string
	for _, c := range counts {
		if !Predicted(c.Unit) && (c.Verdict == Improved || c.Verdict == NotGated && c.Ratio != 1) {
			moved = append(moved, c.Unit)
		}
	}
	if len(moved) == 0 {
		return "instructions, cache misses, system calls and locks unchanged"
	}
	what := "no count worse; " + strings.Join(moved, ", ") + " moved"
	if pred != nil {
		what += ", and the prediction puts it within the threshold: " + pred.Reason
	}
	return what
}

// countsDecide says whether counts decide a cell: every unit of need
// there, none worse or undecided (a PASS, an IMPROVED or a unit shown,
// not gated).
func countsDecide(of []CellVerdict, need []string) bool {
	for _, u := range need {
		if !slices.ContainsFunc(of, func(c CellVerdict) bool { return c.Unit == u }) {
			return false
		}
	}
	for _, c := range of {
		if c.Verdict != Pass && c.Verdict != Improved && c.Verdict != NotGated {
			return false
		}
	}
	return len(of) > 0
}

// countRatio is the ratio of unit among counts, 1 where it is not there.
func countRatio(counts []CellVerdict, unit string) float64 {
	for _, c := range counts {
		if c.Unit == unit && c.Ratio > 0 {
			return c.Ratio
		}
	}
	return 1
}

// percent is a ratio as a signed percentage.
func percent(r float64) string { return fmt.Sprintf("%+.1f%%", 100*(r-1)) }
