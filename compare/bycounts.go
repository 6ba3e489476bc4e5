package compare

import (
	"fmt"
	"math"
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

// SettledByCounts are the names of undecided cells of rep whose counts
// decide them whatever more rounds of time would say: one is a
// REGRESSION, or every count of their design PASSes or improved (need
// all there) and the table, given time as it stands, then decides the
// cell — time can only fail it with a REGRESSION, which a further look at
// Pocock's level rarely gives a cell it left undecided. A time whose
// centre is past the threshold is never settled so: only more rounds
// decide it. ab measures no further look of a settled cell: its time goes
// to the cells the counts cannot decide.
func SettledByCounts(rep *Report, undecided []string, counts []CellVerdict, need []string) []string {
	of := countsOf(counts)
	var out []string
	for _, name := range undecided {
		d := of[design(name)]
		if countsFail(d) {
			out = append(out, name)
			continue
		}
		i := slices.IndexFunc(rep.Cells, func(c CellVerdict) bool { return c.Name == name && !Counted(c.Unit) })
		if i < 0 || !countsDecide(d, need) {
			continue
		}
		if (Case{Time: timeState(rep.Cells[i], rep.Threshold), Counts: countsState(d)}).Decision().Verdict != Inconclusive {
			out = append(out, name)
		}
	}
	return out
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

// Percent is a ratio as a signed percentage, as a reason writes it; a
// change that rounds to nothing is +0.0%, never -0.0%.
func Percent(r float64) string {
	if !(math.Abs(r-1) < 1e4) {
		return fmt.Sprintf("×%.3g", r) // past a million percent a ratio reads better
	}
	s := fmt.Sprintf("%+.1f%%", 100*(r-1))
	if s == "-0.0%" {
		return "+0.0%"
	}
	return s
}
