package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// Trade is a report whose every REGRESSION belongs to a design that is
// faster at another declared thread count: better at some counts the
// project judges at, worse at others. It fails the gate (exit 1), as a
// REGRESSION does, since a count the project declared got worse; its
// line names both sides, and a project that judges fewer counts (ab -at
// 16) says which side it cares about.
const Trade Verdict = "TRADE"

// Rules are how a campaign's witnesses combine into one decision at the
// thread counts a project declares (ab -at). A count up to Cores has time
// for a witness, and at 1 thread the exact counts besides; a count past
// them has the prediction. Lock units speak of contention, at every
// declared count past 1.
type Rules struct {
	// At are the declared thread counts, ascending.
	At []int
	// Cores are the machine's: counts above them are only predicted.
	Cores int
	// Strict: a PASS needs time's; no verdict by counts where time could
	// not decide.
	Strict bool
	// Need are the count units that must all be there for a verdict by
	// counts.
	Need []string
	// PredictedAt is the prediction's verdict of a design (its 1-thread
	// cell) at n threads, if there is one.
	PredictedAt func(design string, n int) (CellVerdict, bool)
	// Miss is how far the prediction at n threads has missed what time
	// measured there, as a fraction, where it was held (its median miss):
	// a prediction that misses time at a count within the cores by more
	// is no witness on its own at any count (PredictionMissed). nil:
	// never checked.
	Miss func(n int) float64
	// Held says what the prediction at n threads was held to, said
	// beside every answer it gave there (Report.Held); nil: nothing.
	Held func(n int) string
}

// witnessAt is the thread count a verdict speaks of: a time cell's own, a
// prediction's, 1 for an exact count; lock units speak of every count
// past 1 and give 0.
func witnessAt(c CellVerdict) int {
	switch {
	case Predicted(c.Unit):
		n, _ := strconv.Atoi(strings.TrimSuffix(c.Unit[strings.LastIndex(c.Unit, "@")+1:], "threads"))
		return n
	case slices.Contains(records.LockUnits, c.Unit):
		return 0
	case Counted(c.Unit):
		return 1
	}
	n, _ := strconv.Atoi(records.NameKey(c.Name, "threads"))
	return max(n, 1) // a cell without a thread count runs one
}

// declared says whether verdict c speaks of a count in at.
func declared(c CellVerdict, at []int) bool {
	if n := witnessAt(c); n != 0 {
		return slices.Contains(at, n)
	}
	return slices.ContainsFunc(at, func(n int) bool { return n > 1 })
}

// countWords names a witness's count: "1 thread", "16 threads", "2
// threads or more" (a lock unit's).
func countWords(n int) string {
	switch n {
	case 0:
		return "2 threads or more"
	case 1:
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// A Figure is a design's head ÷ base at a thread count, in unit (time's,
// the prediction's or a count's).
type Figure struct {
	Design string  `json:"design"`
	At     int     `json:"at"`
	Ratio  float64 `json:"ratio"`
	Unit   string  `json:"unit"`
}

// figure is one decision's change at n threads in a few words: the
// verdict c that shows it, the witness by, and said: what time measured
// where a count decided over it, or why a count is undecided where that
// is more than its cell says.
func figure(c CellVerdict, n int, by Witness, said string) string {
	at := countWords(n)
	change := Percent(c.Ratio) + " a call"
	switch {
	case c.Verdict == Inconclusive && said != "":
		return fmt.Sprintf("undecided at %s (%s)", at, said)
	case c.Verdict == Inconclusive:
		return fmt.Sprintf("undecided at %s", at)
	case c.Verdict == Missing:
		return fmt.Sprintf("missing at %s (an arm never ran)", at)
	case c.Ratio == 0 && c.Unit == "" && c.Verdict == Regression:
		change = "worse"
	case c.Ratio == 0 && c.Unit == "":
		change = "better"
	case c.Ratio == 0 && c.Verdict == Regression:
		change = "more " + c.Unit
	case c.Ratio == 0:
		change = "fewer " + c.Unit
	case Counted(c.Unit) && !Predicted(c.Unit):
		change = Percent(c.Ratio) + " " + c.Unit
	}
	how := string(by)
	switch {
	case Predicted(c.Unit) && c.Cause != "":
		how = "predicted: " + c.Cause
	case Predicted(c.Unit):
		how = "predicted"
	case by == ByTime && Counted(c.Unit):
		how = "counted"
	}
	if said != "" {
		how += "; " + said
	}
	return fmt.Sprintf("%s at %s (%s)", change, at, how)
}
