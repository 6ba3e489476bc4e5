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

// Time is what time measured of a design at a count, read from the
// time cell's typed evidence (timeState): its verdict, its interval, and
// its veto.
type Time int

const (
	// TimeNone: no time at this count: it is past the cores, where only
	// the prediction speaks.
	TimeNone Time = iota
	// TimeMissing: an arm never ran the cell base measures.
	TimeMissing
	// TimeNoWindow: the host kept too few complete rounds of it for a
	// verdict (none, or fewer than MinPairedRounds).
	TimeNoWindow
	// TimeSlower: slower wholly past the threshold (a REGRESSION).
	TimeSlower
	// TimeVetoed: void, in whichever direction head moved: the same code
	// measured twice (the A/A arm, or the machine's reference cells)
	// moved as much.
	TimeVetoed
	// TimeCentrePast: an interval that spans the threshold, its centre
	// slower past it.
	TimeCentrePast
	// TimeLeansSlower: an interval that spans the threshold, its centre
	// (or the whole interval) slower than no change, within it.
	TimeLeansSlower
	// TimePassSlower: a PASS (any slowdown below the threshold) whose
	// centre is slower than no change.
	TimePassSlower
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
	// TimeUnmeasured: no time cell at a count within the cores (the run
	// did not measure that count): the counts are exact there, and the
	// prediction weighs only what they leave.
	TimeUnmeasured
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
	// PredictionMissed: it would decide, but at a count within the cores
	// where time measured it missed by more than it was held to
	// (Rules.Miss): it is no witness on its own.
	PredictionMissed
	// PredictionMiddleNotSlower: its band spans the threshold, its middle
	// not slower past it. Where every count is within the threshold or
	// better too, nothing the model weighs says slower past it.
	PredictionMiddleNotSlower
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
// the witness that gave it, and why: each witness's state in a clause of
// its own, then the row's conclusion (render).
type Decision struct {
	Verdict Verdict `json:"verdict"`
	By      Witness `json:"by,omitempty"`
	Why     string  `json:"why"`
}

// A rule is one row of the table: the states it matches (any where
// unset), the verdict and witness it gives, and its conclusion, which
// must be true of every state it matches (the clauses say the states).
type rule struct {
	time       []Time
	counts     []Counts
	predict    []Prediction
	verdict    Verdict
	by         Witness
	conclusion string
}

var (
	anyTime    []Time
	anyCounts  []Counts
	anyPredict []Prediction
	// unmeasured is no time a verdict can rest on.
	unmeasured = []Time{TimeNone, TimeNoWindow, TimeUnmeasured}
	// notSlower is time that PASSed, its centre no slower.
	notSlower = []Time{TimeSame, TimeLeansFaster}
	// notWorse are counts and predictions that say nothing worse.
	countsNotWorse  = []Counts{CountsNone, CountsSame, CountsBetter}
	predictNotWorse = []Prediction{PredictionNone, PredictionSame, PredictionBetter, PredictionMissed}
	// silent is a prediction that is no witness: none, or one that missed.
	silent = []Prediction{PredictionNone, PredictionMissed}
	// predicted is a prediction that decides: not undecided, not none.
	predicted = []Prediction{PredictionWorse, PredictionSame, PredictionBetter}
	// undecided is a prediction whose band spans the threshold.
	undecided = []Prediction{PredictionUndecided, PredictionMiddleNotSlower}
	// uncounted is time within the cores that kept no verdict.
	uncounted = []Time{TimeNoWindow, TimeUnmeasured}
)

// table is the decision, its rows in order: the first that matches
// decides. Its rules, as a reviewer expects them: a missing arm is
// MISSING; past the cores the prediction, which weighs every count that
// speaks there, decides; within them a count that says worse is a
// REGRESSION whatever time measured; time, where it measured, decides
// before any prediction; a void time decides nothing; time that leans
// slower never stands beside IMPROVED, nor a centre past the threshold
// beside PASS; the counts and the prediction decide only what time could
// not, and say so; where time could not measure within the cores, counts
// no worse beside a prediction whose middle is not slower past the
// threshold are a PASS, never an IMPROVED. With -strict a decision by
// counts is INCONCLUSIVE instead.
var table = []rule{
	{[]Time{TimeMissing}, anyCounts, anyPredict, Missing, ByTime, "a cell an arm lacks fails closed"},
	{[]Time{TimeNone}, anyCounts, predicted, "", ByPrediction, "the prediction weighs every count here"},
	{anyTime, []Counts{CountsWorse}, anyPredict, Regression, ByCounted, "a count is exact, whatever time measured"},
	{[]Time{TimeSlower}, anyCounts, anyPredict, Regression, ByTime, "time decides"},
	{[]Time{TimeVetoed}, anyCounts, anyPredict, Inconclusive, ByNone, "measure again"},
	{unmeasured, anyCounts, []Prediction{PredictionWorse}, Regression, ByPrediction, "the prediction decides what time could not"},
	{[]Time{TimeFaster}, anyCounts, anyPredict, Improved, ByTime, "time decides"},
	{[]Time{TimeCentrePast}, anyCounts, anyPredict, Inconclusive, ByNone, "measure again"},
	{[]Time{TimeLeansSlower}, []Counts{CountsSame, CountsBetter}, predictNotWorse, Pass, ByCounts, "the counts settle it, no IMPROVED"},
	{[]Time{TimeLeansSlower}, anyCounts, anyPredict, Inconclusive, ByNone, "nothing counted settles it"},
	{[]Time{TimePassSlower}, anyCounts, anyPredict, Pass, ByTime, "time decides, no IMPROVED"},
	{notSlower, []Counts{CountsBetter}, predictNotWorse, Improved, ByCounts, "the counts decide the rest"},
	{notSlower, countsNotWorse, []Prediction{PredictionBetter}, Improved, ByCounts, "the prediction decides the rest"},
	{notSlower, anyCounts, anyPredict, Pass, ByTime, "time decides"},
	{[]Time{TimeUndecided}, countsNotWorse, []Prediction{PredictionBetter}, Improved, ByCounts, "the prediction settles it"},
	{[]Time{TimeUndecided}, []Counts{CountsBetter}, append([]Prediction{PredictionSame}, silent...), Improved, ByCounts, "the counts settle it"},
	{[]Time{TimeUndecided}, []Counts{CountsSame}, append([]Prediction{PredictionSame}, silent...), Pass, ByCounts, "the counts settle it"},
	{[]Time{TimeUndecided}, anyCounts, anyPredict, Inconclusive, ByNone, "nothing counted settles it"},
	{unmeasured, []Counts{CountsUndecided}, anyPredict, Inconclusive, ByNone, "nothing settles it"},
	{unmeasured, anyCounts, []Prediction{PredictionBetter}, Improved, ByPrediction, "the prediction decides what time could not"},
	{uncounted, []Counts{CountsSame, CountsBetter}, []Prediction{PredictionMiddleNotSlower}, Pass, ByCounts, "counts decide what time could not, no IMPROVED"},
	{unmeasured, anyCounts, undecided, Inconclusive, ByNone, "nothing settles it"},
	{unmeasured, []Counts{CountsBetter}, anyPredict, Improved, ByCounts, "the counts decide what time could not"},
	{unmeasured, []Counts{CountsSame}, anyPredict, Pass, ByCounts, "the counts decide what time could not"},
	{unmeasured, []Counts{CountsNone}, []Prediction{PredictionSame}, Pass, ByPrediction, "the prediction decides what time could not"},
	{unmeasured, []Counts{CountsNone}, silent, Inconclusive, ByNone, "no witness"},
}

// A Case is what the table reads of a design at a declared count: each
// witness's state, and whether -strict holds there (asked, and the count
// within the cores).
type Case struct {
	Time       Time
	Counts     Counts
	Prediction Prediction
	Strict     bool
}

// Decision is the table's decision of the case, a pure function of it
// that covers every combination (TestTheTableIsWhole): the first row
// that matches; where a count decided a REGRESSION that time or the
// prediction also gives, the witness a reader weighs first (time's, then
// the prediction's); and under -strict no PASS or IMPROVED within the
// cores but time's.
func (k Case) Decision() Decision {
	i := slices.IndexFunc(table, func(r rule) bool {
		return matches(r.time, k.Time) && matches(r.counts, k.Counts) && matches(r.predict, k.Prediction)
	})
	if i < 0 {
		panic(fmt.Sprintf("the decision table has no row for %+v", k))
	}
	r := table[i]
	v, by, conclusion := r.verdict, r.by, r.conclusion
	if v == "" {
		v = k.Prediction.verdict()
	}
	switch {
	case by == ByCounted && k.Time == TimeSlower:
		by = ByTime
	case by == ByCounted && k.Prediction == PredictionWorse:
		by = ByPrediction
	}
	if k.Strict && (by == ByCounts || by == ByPrediction) && (v == Pass || v == Improved) {
		v, by, conclusion = Inconclusive, ByNone, StrictConclusion
	}
	return Decision{v, by, render(k.Time, k.Counts, k.Prediction, v, conclusion)}
}

// StrictConclusion ends the reason of a count -strict left undecided.
const StrictConclusion = "-strict: time must decide"

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
	timeNames    = []string{"none (past the cores)", "an arm missing", "too few rounds", "slower past the threshold", "void (the same code moved)", "centre past the threshold", "leans slower", "within, leaning slower", "within the threshold", "spans the threshold", "leans faster", "faster past the threshold", "not measured (within the cores)"}
	countsNames  = []string{"none", "worse", "undecided", "unchanged", "better"}
	predictNames = []string{"none", "worse", "undecided", "within", "better", "missed time", "undecided, middle not slower"}
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
			verdictText(r), witnessText(r.by), r.conclusion)
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

// verdictText is a rule's verdict as the table names it: the
// prediction's own where the rule hands the count to it.
func verdictText(r rule) Verdict {
	if r.verdict == "" {
		return "the prediction's"
	}
	return r.verdict
}
