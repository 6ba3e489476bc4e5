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

// Decide combines the witnesses as rules says, after every verdict is in:
// a verdict that speaks of no declared count is shown, not gated; a time
// cell that could not decide is decided by the counts where they can
// (byCounts); and a design better at one declared count and worse at
// another is a trade (Answers says so in a line). Then the overall
// verdict is recomputed.
func (r *Report) Decide(rules Rules) {
	atList := joinInts(rules.At)
	r.predictionGates = len(rules.At) > 0 && slices.Max(rules.At) > rules.Cores
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Verdict == NotGated || declared(*c, rules.At) {
			continue
		}
		c.Verdict = NotGated
		c.Reason += fmt.Sprintf("; not gated: -at %s does not judge %s", atList, countWords(witnessAt(*c)))
	}
	if !rules.Strict {
		r.byCounts(rules)
		r.unmeasured(rules)
	}
	r.answer(rules)
	r.finish()
}

// unmeasured hands a time cell the host kept no complete round of (every
// window disturbed: its threads never had their cores) to the witness of
// a count the host cannot measure: past 1 thread the prediction at its
// count, which needs no time, and at 1 thread the exact counts. The cell
// is shown, not gated, and says why; with no such witness, or no count
// past the cores declared (the prediction then gates nothing), it stays
// INCONCLUSIVE.
func (r *Report) unmeasured(rules Rules) {
	var added []CellVerdict
	for i := range r.Cells {
		c := &r.Cells[i]
		if Counted(c.Unit) || c.Verdict != Inconclusive || c.Rounds != 0 {
			continue
		}
		d, n := design(c.Name), witnessAt(*c)
		if n == 1 {
			if slices.ContainsFunc(r.Cells, func(x CellVerdict) bool {
				return design(x.Name) == d && x.Unit == records.Instructions && x.Verdict != NotGated && x.Verdict != Inconclusive
			}) {
				c.Verdict = NotGated
				c.Reason += "; not gated: the host kept no window of it, so 1 thread is judged by the exact counts alone"
			}
			continue
		}
		if rules.PredictedAt == nil || !r.predictionGates {
			continue
		}
		p, ok := rules.PredictedAt(d, n)
		if !ok {
			continue
		}
		c.Verdict = NotGated
		c.Reason += fmt.Sprintf("; not gated: the host kept no window of it (its %s never had their cores), so the prediction judges %s: %s", countWords(n), countWords(n), p.Reason)
		if !slices.ContainsFunc(append(r.Cells, added...), func(x CellVerdict) bool { return x.Unit == p.Unit && design(x.Name) == d }) {
			added = append(added, p)
		}
	}
	r.Cells = append(r.Cells, added...)
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

// answer writes r.Answers, a line for each design the change moved at a
// declared count: what it does at each, "sorted: a trade: +175.0% a call
// at 1 thread (time), -92.5% a call at 16 threads (predicted)", and marks
// the trades, whose REGRESSIONs make the report a TRADE (finish).
func (r *Report) answer(rules Rules) {
	r.Answers, r.Figures, r.trades = nil, nil, make(map[string]bool)
	var designs []string
	for _, c := range r.Cells {
		if d := design(c.Name); !slices.Contains(designs, d) {
			designs = append(designs, d)
		}
	}
	for _, d := range designs {
		var parts []string
		worse, better := false, false
		for _, n := range rules.At {
			v, by, ok := r.verdictAt(d, n)
			if !ok || v == Pass || v == NotGated {
				continue
			}
			worse, better = worse || v == Regression, better || v == Improved
			parts = append(parts, figure(by, n))
			if v != Inconclusive && by.Ratio > 0 {
				r.Figures = append(r.Figures, Figure{Design: shortName(d), At: n, Ratio: by.Ratio, Unit: by.Unit})
			}
		}
		if len(parts) == 0 {
			continue
		}
		line := shortName(d) + ": " + strings.Join(parts, ", ")
		if worse && better {
			r.trades[d] = true
			line = shortName(d) + ": a trade: " + strings.Join(parts, ", ") + fmt.Sprintf("; -at names the counts that matter (-at %d judges %s alone)", rules.At[len(rules.At)-1], countWords(rules.At[len(rules.At)-1]))
		}
		r.Answers = append(r.Answers, line)
	}
}

// verdictAt is design d's verdict at n threads, the worst of its gated
// witnesses there, and the verdict that gave it (time's first, then the
// prediction's, then a count's); ok is false where n has no witness.
func (r *Report) verdictAt(d string, n int) (Verdict, CellVerdict, bool) {
	var worst Verdict
	var by CellVerdict
	rank := func(c CellVerdict) int {
		switch {
		case !Counted(c.Unit):
			return 0
		case Predicted(c.Unit):
			return 1
		}
		return 2
	}
	for _, c := range r.Cells {
		w := witnessAt(c)
		if design(c.Name) != d || c.Verdict == NotGated || !(w == n || w == 0 && n > 1) {
			continue
		}
		v := c.Verdict
		if worst == "" || v.Severity() > worst.Severity() || v == worst && rank(c) < rank(by) {
			worst, by = v, c
		}
	}
	return worst, by, worst != ""
}

// A Figure is a design's head ÷ base at a thread count, in unit (time's,
// the prediction's or a count's).
type Figure struct {
	Design string  `json:"design"`
	At     int     `json:"at"`
	Ratio  float64 `json:"ratio"`
	Unit   string  `json:"unit"`
}

// figure is one verdict's change at n threads in a few words.
func figure(c CellVerdict, n int) string {
	at := countWords(n)
	change := percent(c.Ratio) + " a call"
	switch {
	case c.Verdict == Inconclusive:
		return fmt.Sprintf("undecided at %s", at)
	case c.Ratio == 0 && c.Verdict == Regression:
		change = "more " + c.Unit
	case c.Ratio == 0:
		change = "fewer " + c.Unit
	case Counted(c.Unit) && !Predicted(c.Unit):
		change = percent(c.Ratio) + " " + c.Unit
	}
	how := "time"
	switch {
	case Predicted(c.Unit) && cause(c.Reason) != "":
		how = "predicted: " + cause(c.Reason)
	case Predicted(c.Unit):
		how = "predicted"
	case Counted(c.Unit):
		how = "counted"
	case c.ByCounts:
		how = "by counts"
	}
	return fmt.Sprintf("%s at %s (%s)", change, at, how)
}

// cause is the first cause a prediction's reason names ("calls take no
// exclusive lock"), "" where it names none.
func cause(reason string) string {
	_, after, ok := strings.Cut(reason, "]: ")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(after, ",;("); i > 0 {
		after = after[:i]
	}
	return strings.TrimSpace(after)
}

// shortName is a design's name for a line: its impl key, else the name
// without its thread count.
func shortName(d string) string {
	if impl := records.NameKey(d, "impl"); impl != "" {
		return impl
	}
	return strings.TrimSuffix(d, "/threads=1")
}
