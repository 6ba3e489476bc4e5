package compare

import (
	"fmt"
	"slices"
	"strings"
)

// The decision is one table: what each witness says of a design at a
// declared thread count goes in (Time, Counts, Prediction), a verdict at
// that count and the reason it rests on come out (Decision). ab, gate and
// -replay consult it through Report.Decide; docs/compare.md shows it
// (perfrun rules prints it); a test walks every combination of states.

// Time is what time measured of a design at a count.
type Time int

const (
	// TimeNone: no time at this count (past the cores, or not measured).
	TimeNone Time = iota
	// TimeMissing: an arm never ran the cell base measures.
	TimeMissing
	// TimeNoWindow: the host kept no complete round of it.
	TimeNoWindow
	// TimeSlower: slower wholly past the threshold (a REGRESSION).
	TimeSlower
	// TimeVetoed: slower wholly past the threshold, but the same code
	// measured twice (the A/A arm) moved as much.
	TimeVetoed
	// TimeLeansSlower: its centre, or its whole interval, slower than no
	// change, not wholly past the threshold: a PASS or an undecided cell
	// that leans slower.
	TimeLeansSlower
	// TimeSame: a PASS whose centre is no slower.
	TimeSame
	// TimeUndecided: an interval that spans the threshold, its centre no
	// slower.
	TimeUndecided
	// TimeLeansFaster: faster wholly past no change, not past the
	// threshold.
	TimeLeansFaster
	// TimeFaster: faster wholly past the threshold (an IMPROVED).
	TimeFaster
)

// Counts is what the exact counts say of a design at a count: at 1
// thread its instructions, traffic and lock profile; past it the lock
// profile alone.
type Counts int

const (
	// CountsNone: no count speaks of this count.
	CountsNone Counts = iota
	// CountsWorse: a gated count past the threshold, worse.
	CountsWorse
	// CountsUndecided: a count its processes could not settle.
	CountsUndecided
	// CountsSame: every count within the threshold.
	CountsSame
	// CountsBetter: none worse, one better past the threshold.
	CountsBetter
)

// Prediction is what the prediction says of a design at a count.
type Prediction int

const (
	// PredictionNone: nothing predicted at this count.
	PredictionNone Prediction = iota
	// PredictionWorse: slower past the threshold.
	PredictionWorse
	// PredictionUndecided: its band spans the threshold (within the
	// cores, held to what the runner measured).
	PredictionUndecided
	// PredictionSame: within the threshold.
	PredictionSame
	// PredictionBetter: faster past the threshold.
	PredictionBetter
)

// Witness names what decided a count.
type Witness string

const (
	ByTime       Witness = "time"
	ByCounted    Witness = "counted"
	ByPrediction Witness = "predicted"
	ByCounts     Witness = "by counts"
	ByNone       Witness = ""
)

// A Decision is what the table gives a design at a count: its verdict,
// the witness that gave it, and why, in a clause.
type Decision struct {
	Verdict Verdict
	By      Witness
	Why     string
}

// A rule is one row of the table: the states it matches (any where
// unset) and the decision it gives.
type rule struct {
	time     []Time
	counts   []Counts
	predict  []Prediction
	decision Decision
}

var (
	anyTime    []Time
	anyCounts  []Counts
	anyPredict []Prediction
	// unmeasured is no time a verdict can rest on.
	unmeasured = []Time{TimeNone, TimeNoWindow}
	// notSlower is time measured within the threshold, leaning no slower.
	notSlower = []Time{TimeSame, TimeLeansFaster}
	// notWorse are counts and predictions that say nothing worse.
	countsNotWorse  = []Counts{CountsNone, CountsSame, CountsBetter}
	predictNotWorse = []Prediction{PredictionNone, PredictionSame, PredictionBetter}
)

// table is the decision, its rows in order: the first that matches
// decides. Its rules, as a reviewer expects them: a missing arm is
// MISSING; a witness that says worse is never outvoted, and a count that
// says worse is a REGRESSION whatever time measured; time, where it
// measured, decides before any prediction; time that leans slower never
// stands beside IMPROVED; the counts and the prediction decide only what
// time could not, and say so. With -strict a decision by counts is
// INCONCLUSIVE instead.
var table = []rule{
	{[]Time{TimeMissing}, anyCounts, anyPredict, Decision{Missing, ByTime, "an arm never ran: base measures it, head does not"}},
	{anyTime, []Counts{CountsWorse}, anyPredict, Decision{Regression, ByCounted, "a count is worse, exactly, whatever time measured"}},
	{[]Time{TimeSlower}, anyCounts, anyPredict, Decision{Regression, ByTime, "time measured it slower past the threshold"}},
	{[]Time{TimeVetoed}, anyCounts, anyPredict, Decision{Inconclusive, ByNone, "time measured it slower wholly past the threshold, the same code moving as much: measure again"}},
	{unmeasured, anyCounts, []Prediction{PredictionWorse}, Decision{Regression, ByPrediction, "time could not measure it; the prediction is slower past the threshold"}},
	{[]Time{TimeFaster}, anyCounts, anyPredict, Decision{Improved, ByTime, "time measured it faster past the threshold, and no count is worse"}},
	{[]Time{TimeLeansSlower}, []Counts{CountsSame, CountsBetter}, predictNotWorse, Decision{Pass, ByCounts, "time leans slower within the threshold: no count worse, and no better either"}},
	{[]Time{TimeLeansSlower}, anyCounts, anyPredict, Decision{Inconclusive, ByNone, "time leans slower and spans the threshold: nothing counted settles it"}},
	{notSlower, []Counts{CountsBetter}, predictNotWorse, Decision{Improved, ByCounts, "time is no slower; the counts are better and none worse"}},
	{notSlower, countsNotWorse, []Prediction{PredictionBetter}, Decision{Improved, ByCounts, "time is no slower; the prediction from the counts is faster past the threshold"}},
	{notSlower, anyCounts, anyPredict, Decision{Pass, ByTime, "time measured it within the threshold"}},
	{[]Time{TimeUndecided}, countsNotWorse, []Prediction{PredictionBetter}, Decision{Improved, ByCounts, "time spans the threshold, its centre no slower; the prediction from the counts is faster past it"}},
	{[]Time{TimeUndecided}, []Counts{CountsBetter}, []Prediction{PredictionNone, PredictionSame}, Decision{Improved, ByCounts, "time spans the threshold, its centre no slower; the counts are better and none worse"}},
	{[]Time{TimeUndecided}, []Counts{CountsSame}, []Prediction{PredictionNone, PredictionSame}, Decision{Pass, ByCounts, "time spans the threshold; no count worse"}},
	{[]Time{TimeUndecided}, anyCounts, anyPredict, Decision{Inconclusive, ByNone, "time spans the threshold and nothing counted settles it"}},
	{unmeasured, []Counts{CountsUndecided}, anyPredict, Decision{Inconclusive, ByNone, "time could not measure it and a count is undecided"}},
	{unmeasured, anyCounts, []Prediction{PredictionBetter}, Decision{Improved, ByPrediction, "time could not measure it; the prediction is faster past the threshold"}},
	{unmeasured, anyCounts, []Prediction{PredictionUndecided}, Decision{Inconclusive, ByNone, "time could not measure it and the prediction's band spans the threshold"}},
	{unmeasured, []Counts{CountsBetter}, anyPredict, Decision{Improved, ByCounts, "time could not measure it; the counts are better and none worse"}},
	{unmeasured, []Counts{CountsSame}, anyPredict, Decision{Pass, ByCounts, "time could not measure it; the counts are unchanged"}},
	{unmeasured, []Counts{CountsNone}, []Prediction{PredictionSame}, Decision{Pass, ByPrediction, "time could not measure it; the prediction is within the threshold"}},
	{unmeasured, []Counts{CountsNone}, []Prediction{PredictionNone}, Decision{Inconclusive, ByNone, "no witness: no complete round of time, and nothing counted or predicted"}},
}

// Decide is the table's decision for the witnesses' states. It covers
// every combination (TestTheTableIsWhole).
func Decide(t Time, c Counts, p Prediction) Decision {
	for _, r := range table {
		if matches(r.time, t) && matches(r.counts, c) && matches(r.predict, p) {
			return r.decision
		}
	}
	panic(fmt.Sprintf("the decision table has no row for %v, %v, %v", t, c, p))
}

// matches says whether a rule's states (any, where there are none) hold s.
func matches[T comparable](states []T, s T) bool {
	return len(states) == 0 || slices.Contains(states, s)
}

// Exit is the exit code of a verdict, decided in one place: 0 PASS or
// IMPROVED, 1 REGRESSION, TRADE or MISSING, 3 INCONCLUSIVE.
func (v Verdict) Exit() int {
	switch v {
	case Regression, Trade, Missing:
		return 1
	case Inconclusive:
		return 3
	}
	return 0
}

// names of the states, as the table writes them.
var (
	timeNames    = []string{"none (past the cores)", "an arm missing", "no window kept", "slower past the threshold", "slower, vetoed by the A/A arm", "leans slower", "within the threshold", "spans the threshold", "leans faster", "faster past the threshold"}
	countsNames  = []string{"none", "worse", "undecided", "unchanged", "better"}
	predictNames = []string{"none", "worse", "undecided", "within", "better"}
)

func (t Time) String() string       { return timeNames[t] }
func (c Counts) String() string     { return countsNames[c] }
func (p Prediction) String() string { return predictNames[p] }

// Table is the decision table in Markdown, a row a rule, in the order
// they are tried: what docs/compare.md shows.
func Table() string {
	var b strings.Builder
	b.WriteString("| time | counts | prediction | verdict | by | why |\n|---|---|---|---|---|---|\n")
	names := func(n int, name func(int) string, of func(int) bool) string {
		var out []string
		for i := range n {
			if of(i) {
				out = append(out, name(i))
			}
		}
		if len(out) == n {
			return "any"
		}
		return strings.Join(out, ", ")
	}
	for _, r := range table {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n",
			names(len(timeNames), func(i int) string { return Time(i).String() }, func(i int) bool { return matches(r.time, Time(i)) }),
			names(len(countsNames), func(i int) string { return Counts(i).String() }, func(i int) bool { return matches(r.counts, Counts(i)) }),
			names(len(predictNames), func(i int) string { return Prediction(i).String() }, func(i int) bool { return matches(r.predict, Prediction(i)) }),
			r.decision.Verdict, witnessText(r.decision.By), r.decision.Why)
	}
	return b.String()
}

// witnessText is a witness as the table names it.
func witnessText(w Witness) string {
	if w == ByNone {
		return "—"
	}
	return string(w)
}
