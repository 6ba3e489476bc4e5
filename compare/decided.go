package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// Decide combines the witnesses at the declared counts by the decision
// table (Decide, Table): for every design and declared count it reads
// each witness's state from the cells, takes the table's decision, and
// shows it on the cells (a time cell decided by counts says so; one the
// host kept no window of hands the count to the prediction). A verdict
// that speaks of no declared count is shown, not gated, and its change,
// where it passes the threshold, is still told (Answers: "not
// declared"). The overall verdict is the decisions' (finish).
//
// The decisions read the cells as measured and never edit them: what
// the report shows is built afresh from them, so a report decided again
// (other rules) starts from what was measured.
func (r *Report) Decide(rules Rules) {
	if r.measured == nil {
		r.measured = slices.Clone(r.Cells)
	}
	measured := board{cells: r.measured, threshold: r.Threshold}
	r.predictionGates = len(rules.At) > 0 && slices.Max(rules.At) > rules.Cores
	undeclared := measured.undeclaredChanges(rules)
	view := measured.declaredOnly(rules.At)
	designs := view.designs()
	label := designLabels(designs)
	r.decisions = make(map[string]map[int]atCount)
	r.Decided = nil
	for _, d := range designs {
		r.decisions[d] = make(map[int]atCount)
		for _, n := range rules.At {
			if dec, ok := view.decideAt(d, n, rules); ok {
				dec.Design = label[d]
				r.decisions[d][n] = dec
				r.Decided = append(r.Decided, dec.Decided)
			}
		}
	}
	r.Cells = view.shown(r.decisions, designs, rules.At)
	r.answer(rules, undeclared, designs, label)
	r.held(rules, designs)
	r.finish()
}

// held sets r.Held: what the prediction was held to at each declared
// count where it gave a design's answer, once each.
func (r *Report) held(rules Rules, designs []string) {
	r.Held = nil
	if rules.Held == nil {
		return
	}
	for _, n := range rules.At {
		for _, d := range designs {
			dec, ok := r.decisions[d][n]
			if !ok || !Predicted(dec.by.Unit) || dec.Verdict == Pass || dec.Verdict == NotGated {
				continue
			}
			if h := rules.Held(n); h != "" && !slices.Contains(r.Held, h) {
				r.Held = append(r.Held, h)
			}
			break
		}
	}
}

// A board is the cells a decision reads and the threshold time is held
// to: read, never written.
type board struct {
	cells     []CellVerdict
	threshold float64
}

// declaredOnly is the board with every verdict that speaks of no count
// in at shown, not gated.
func (b board) declaredOnly(at []int) board {
	out := board{cells: slices.Clone(b.cells), threshold: b.threshold}
	for i := range out.cells {
		c := &out.cells[i]
		if c.Verdict == NotGated || declared(*c, at) {
			continue
		}
		c.Verdict = NotGated
		c.Reason += fmt.Sprintf("; not gated: -at %s does not judge %s", joinInts(at), countWords(witnessAt(*c)))
	}
	return out
}

// shown are the board's cells with every decision shown on the time cell
// it concerns (designs and declared counts in order), and the
// predictions that decided where no cell of theirs was.
func (b board) shown(decisions map[string]map[int]atCount, designs []string, at []int) []CellVerdict {
	out := slices.Clone(b.cells)
	for _, d := range designs {
		for _, n := range at {
			if dec, ok := decisions[d][n]; ok {
				out = dec.show(out, b)
			}
		}
	}
	return out
}

// Decided is the table's decision of a design at a declared count, with
// what each witness said: what the JSON gives and the decided line
// renders.
type Decided struct {
	// Design is the design as the answer lines name it (designLabels).
	Design string `json:"design"`
	// Name is the design's 1-thread cell, whose counts speak for it.
	Name string `json:"name"`
	At   int    `json:"at"`
	Decision
	Time Time `json:"time"`
	// Kept are the complete rounds time kept of the count's time cell.
	Kept       int        `json:"kept"`
	Counts     Counts     `json:"counts"`
	Prediction Prediction `json:"prediction"`
}

// An atCount is the table's decision of a design at a count, and the
// verdict cell that shows it: the time cell, the count, or the
// prediction that decided.
type atCount struct {
	Decided
	by CellVerdict
	// timeSaid is what time measured where a count decided over it.
	timeSaid string
	// The time cell's index on the board (-1 where none), and the
	// prediction at the count where predicted: what show puts on it.
	timeCell  int
	pred      CellVerdict
	predicted bool
	// missed is where the prediction missed time within the cores
	// (PredictionMissed), in words, and missedAt the count.
	missed   string
	missedAt int
}

// designs are the designs of the board's cells, in order.
func (b board) designs() []string {
	var out []string
	for _, c := range b.cells {
		if d := design(c.Name); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// decideAt is design d's decision at n threads: the table's, from the
// states of its time cell at n, its counts (at 1 thread every count; past
// it the lock units) and its prediction at n; false where no witness
// speaks of n.
func (b board) decideAt(d string, n int, rules Rules) (atCount, bool) {
	ti := b.timeCell(d, n)
	var tm Time
	var timeCell CellVerdict
	switch {
	case ti >= 0:
		timeCell = b.cells[ti]
		tm = timeState(timeCell, b.threshold)
	case n <= max(rules.Cores, 1):
		tm = TimeUnmeasured // within the cores, where time could have run
	}
	counts, cs := b.countsAt(d, n, tm, rules.Need)
	pred, predicted := b.predictionAt(d, n, rules)
	if ti < 0 && len(counts) == 0 && !predicted {
		return atCount{}, false
	}
	ps := PredictionNone
	missed, missedAt := "", 0
	if predicted {
		ps = predictionState(pred, b.threshold)
		switch missedAt, missed = b.missedWithin(d, rules); {
		case missed == "":
		case ps == PredictionMiddleNotSlower:
			ps = PredictionUndecided // a prediction that missed time says nothing of its middle
		case ps != PredictionUndecided:
			ps = PredictionMissed
		}
	}
	k := Case{tm, cs, ps, rules.Strict && n <= rules.Cores}
	dec := atCount{Decided: Decided{Name: d, At: n, Decision: k.Decision(), Time: tm, Kept: timeCell.Rounds, Counts: cs, Prediction: ps},
		timeCell: ti, pred: pred, predicted: predicted}
	if ps == PredictionMissed {
		dec.Why += " (the prediction " + missed + ")"
		dec.missed, dec.missedAt = missed, missedAt
	}
	switch dec.By {
	case ByTime:
		dec.by = timeCell
	case ByCounted:
		dec.by = worstCount(counts)
		if tm == TimeFaster || tm == TimeLeansFaster {
			dec.timeSaid = "time measured " + Percent(timeCell.Ratio)
		}
	case ByPrediction:
		dec.by = pred
	case ByCounts:
		dec.by = timeCell
	}
	if dec.by.Name == "" {
		dec.by = CellVerdict{Name: d, Verdict: dec.Verdict, Reason: dec.Why}
	}
	dec.by.Verdict = dec.Verdict
	return dec, true
}

// show is cells with the decision put on the time cell it concerns: a
// time cell decided by counts says so; one the host kept no window of is
// shown, not gated, and hands the count to the prediction, whose cell
// joins the report. b is the board the decision read.
func (dec atCount) show(cells []CellVerdict, b board) []CellVerdict {
	pred, tm := dec.pred, dec.Time
	if dec.missed != "" {
		if i := slices.IndexFunc(cells, func(x CellVerdict) bool { return x.Name == pred.Name && x.Unit == pred.Unit }); i >= 0 {
			cells[i].Verdict = NotGated
			cells[i].Reason += "; not gated, no witness alone: the prediction " + dec.missed
		}
	}
	join := func() {
		if !slices.ContainsFunc(cells, func(x CellVerdict) bool { return x.Name == pred.Name && x.Unit == pred.Unit }) {
			cells = append(cells, pred)
		}
	}
	if dec.timeCell < 0 {
		if dec.By == ByPrediction {
			join()
		}
		return cells
	}
	c := &cells[dec.timeCell]
	switch {
	case dec.By == ByCounts && tm == TimeNoWindow:
		c.Verdict = NotGated
		c.Reason += "; not gated: the host kept no window of it, so the exact counts judge it alone"
	case dec.By == ByCounts:
		all := b.designCounts(design(c.Name))
		what := passWhat(all, dec.predicted, pred)
		if dec.Verdict == Improved {
			what = improvedWhat(all, dec.predicted, pred)
		}
		noise := ""
		if c.Layout > 0 {
			noise = fmt.Sprintf(" at ±%.1f%% a round", 100*c.Layout)
		}
		c.Verdict, c.ByCounts = dec.Verdict, true
		c.Reason = fmt.Sprintf("by counts: %s; %s%s (%s)", what, dec.Why, noise, c.Reason)
	case dec.By == ByPrediction && tm == TimeNoWindow:
		c.Verdict = NotGated
		c.Reason += fmt.Sprintf("; not gated: the host kept no window of it, so the prediction judges %s: %s", countWords(witnessAt(*c)), pred.Reason)
		join()
	case dec.Verdict == Inconclusive && c.Verdict == Inconclusive:
		c.Reason += "; " + dec.Why
	}
	return cells
}

// timeCell is the index of design d's time cell at n threads, -1 where
// it has none.
func (b board) timeCell(d string, n int) int {
	return slices.IndexFunc(b.cells, func(c CellVerdict) bool {
		return !Counted(c.Unit) && design(c.Name) == d && witnessAt(c) == n && c.Verdict != NotGated
	})
}

// designCounts are every exact count of design d, gated or shown.
func (b board) designCounts(d string) []CellVerdict {
	var out []CellVerdict
	for _, c := range b.cells {
		if Counted(c.Unit) && !Predicted(c.Unit) && design(c.Name) == d {
			out = append(out, c)
		}
	}
	return out
}

// countsAt are design d's gated counts that speak of n threads, and what
// they say as the table reads it. At 1 thread every exact count speaks,
// and a verdict by them needs every unit of need there (the prediction's
// among them). Past it the lock units speak; where time measured there,
// the 1-thread counts join them, to settle what time could not (the code
// did the same work), never to make it worse: a count worse at 1 thread
// leaves the count past it undecided, and is told at 1.
func (b board) countsAt(d string, n int, tm Time, need []string) ([]CellVerdict, Counts) {
	var at, one []CellVerdict
	for _, c := range b.designCounts(d) {
		if c.Verdict == NotGated {
			continue
		}
		switch w := witnessAt(c); {
		case w == n || w == 0 && n > 1:
			at = append(at, c)
		case w == 1:
			one = append(one, c)
		}
	}
	state := countsState(at)
	if n == 1 {
		if state != CountsWorse && state != CountsNone && !b.hasAll(d, need) {
			state = CountsUndecided
		}
		return at, state
	}
	if state == CountsWorse || tm == TimeNone || tm == TimeNoWindow || tm == TimeUnmeasured || len(one) == 0 {
		return at, state
	}
	code := countsState(one)
	switch {
	case code == CountsWorse || code == CountsUndecided || !b.hasAll(d, need):
		if state != CountsBetter {
			state = CountsUndecided
		}
	case state == CountsNone:
		state = CountsSame
	}
	return append(at, one...), state
}

// hasAll says whether design d has every unit of need settled: there,
// and neither worse nor undecided. A verdict by counts needs them all.
func (b board) hasAll(d string, need []string) bool {
	for _, u := range need {
		if !slices.ContainsFunc(b.cells, func(c CellVerdict) bool {
			return design(c.Name) == d && c.Unit == u && (c.Verdict == Pass || c.Verdict == Improved || c.Verdict == NotGated)
		}) {
			return false
		}
	}
	return true
}

// predictionAt is design d's prediction at n threads: its cell in the
// report where the report gates it, else the campaign's (rules), which
// speaks where time could not measure.
func (b board) predictionAt(d string, n int, rules Rules) (CellVerdict, bool) {
	if i := slices.IndexFunc(b.cells, func(c CellVerdict) bool {
		return Predicted(c.Unit) && design(c.Name) == d && witnessAt(c) == n && c.Verdict != NotGated
	}); i >= 0 {
		return b.cells[i], true
	}
	if rules.PredictedAt == nil || n < 2 {
		return CellVerdict{}, false
	}
	return rules.PredictedAt(d, n)
}

// missedWithin says where design d's prediction missed what time measured
// within the cores by more than rules.Miss: the first count (ascending)
// where the prediction lies that far outside time's interval, and the
// miss in words; 0 and "" where it held at every count time measured, or
// nothing holds it.
func (b board) missedWithin(d string, rules Rules) (int, string) {
	if rules.Miss == nil || rules.PredictedAt == nil {
		return 0, ""
	}
	for m := 1; m <= rules.Cores; m++ {
		ti := slices.IndexFunc(b.cells, func(c CellVerdict) bool {
			return !Counted(c.Unit) && design(c.Name) == d && witnessAt(c) == m
		})
		if ti < 0 {
			continue
		}
		tc := b.cells[ti] // declared or not, what time measured holds the prediction
		if !measuredInterval(timeState(tc, b.threshold)) || !(tc.Lo > 0) || !(tc.Hi >= tc.Lo) {
			continue
		}
		p, ok := rules.PredictedAt(d, m)
		if !ok || !(p.Ratio > 0) {
			continue
		}
		if miss := rules.Miss(m); p.Ratio > tc.Hi*(1+miss) || p.Ratio < tc.Lo/(1+miss) {
			return m, fmt.Sprintf("missed time at %s: predicted %s a call, measured %s [%s, %s], past the %.0f%% it was held to",
				countWords(m), Percent(p.Ratio), Percent(tc.Ratio), Percent(tc.Lo), Percent(tc.Hi), 100*miss)
		}
	}
	return 0, ""
}

// measuredInterval says whether time measured an interval a prediction
// can be held to: not missing, void, too few rounds or not run.
func measuredInterval(t Time) bool {
	switch t {
	case TimeNone, TimeMissing, TimeNoWindow, TimeVetoed, TimeUnmeasured:
		return false
	}
	return true
}

// timeState is what a time cell says, as the table reads it: from its
// typed evidence alone (verdict, veto, interval), never from its reason.
func timeState(c CellVerdict, threshold float64) Time {
	estimated := c.Ratio > 0
	switch {
	case c.Verdict == Missing:
		return TimeMissing
	case c.Vetoed != "":
		return TimeVetoed
	case c.Verdict == Regression:
		return TimeSlower
	case c.Verdict == Improved:
		return TimeFaster
	case !estimated:
		return TimeNoWindow
	case c.Verdict == Pass && c.Hi > 0 && c.Hi < 1:
		return TimeLeansFaster
	case c.Verdict == Pass && (c.Lo > 1 || c.Ratio > 1):
		return TimePassSlower
	case c.Verdict == Pass:
		return TimeSame
	case c.Ratio > 1+threshold:
		return TimeCentrePast
	case c.Lo > 1 || c.Ratio > 1:
		return TimeLeansSlower
	case c.Hi > 0 && c.Hi < 1:
		return TimeLeansFaster
	}
	return TimeUndecided
}

// countsState is what counts say: worse where one is a REGRESSION;
// undecided where one is; better where one improved and none is worse;
// the same where every one passed; none where there are none.
func countsState(counts []CellVerdict) Counts {
	switch {
	case len(counts) == 0:
		return CountsNone
	case slices.ContainsFunc(counts, func(c CellVerdict) bool { return c.Verdict == Regression || c.Verdict == Missing }):
		return CountsWorse
	case slices.ContainsFunc(counts, func(c CellVerdict) bool { return c.Verdict == Inconclusive }):
		return CountsUndecided
	case slices.ContainsFunc(counts, func(c CellVerdict) bool { return c.Verdict == Improved }):
		return CountsBetter
	}
	return CountsSame
}

// predictionState is what a prediction's verdict says, and where it
// decides nothing, whether its middle is slower past the threshold.
func predictionState(p CellVerdict, threshold float64) Prediction {
	switch {
	case p.Verdict == Regression:
		return PredictionWorse
	case p.Verdict == Improved:
		return PredictionBetter
	case p.Verdict == Pass:
		return PredictionSame
	case p.Ratio > 0 && p.Ratio <= 1+threshold:
		return PredictionMiddleNotSlower
	}
	return PredictionUndecided
}

// worstCount is the count that made counts worse.
func worstCount(counts []CellVerdict) CellVerdict {
	for _, c := range counts {
		if c.Verdict == Regression || c.Verdict == Missing {
			return c
		}
	}
	return CellVerdict{}
}

// passWhat says what a PASS by counts rests on: every count unchanged, or
// the counts that moved without a verdict against them and what the
// prediction made of the move.
func passWhat(counts []CellVerdict, predicted bool, pred CellVerdict) string {
	var moved []string
	for _, c := range counts {
		if c.Verdict == Improved || c.Verdict == NotGated && c.Ratio != 1 {
			moved = append(moved, c.Unit)
		}
	}
	if len(moved) == 0 {
		return "instructions, cache misses, system calls and locks unchanged"
	}
	what := "no count worse; " + strings.Join(moved, ", ") + " moved"
	if predicted {
		what += ", and the prediction puts it within the threshold: " + pred.Reason
	}
	return what
}

// improvedWhat says what an IMPROVED by counts rests on.
func improvedWhat(counts []CellVerdict, predicted bool, pred CellVerdict) string {
	if predicted && pred.Verdict == Improved {
		return pred.Reason
	}
	for _, c := range counts {
		if c.Verdict == Improved {
			return fmt.Sprintf("%s %s at 1 thread", c.Unit, Percent(c.Ratio))
		}
	}
	return "no count worse"
}

// undeclaredChanges are, for each design, the changes past the threshold
// its witnesses saw at counts the project did not declare: each design's
// decision there, as the table would give it were the count declared.
func (b board) undeclaredChanges(rules Rules) map[string][]string {
	out := make(map[string][]string)
	counts := make(map[int]bool)
	for _, c := range b.cells {
		if n := witnessAt(c); n > 0 && !slices.Contains(rules.At, n) {
			counts[n] = true
		}
	}
	for _, d := range b.designs() {
		for n := range counts {
			all := rules
			all.At, all.Strict = []int{n}, false
			dec, ok := b.decideAt(d, n, all)
			if ok && (dec.Verdict == Regression || dec.Verdict == Improved) {
				out[d] = append(out[d], "not declared: "+figure(dec.by, n, dec.By, ""))
			}
		}
		slices.Sort(out[d])
	}
	return out
}

// answer writes r.Answers, a line for each design the change moved at a
// declared count: what it does at each, "sorted: a trade: +175.0% a call
// at 1 thread (time), -92.5% a call at 16 threads (predicted)", then the
// changes at counts nobody declared; and marks the trades, whose
// REGRESSIONs make the report a TRADE (finish).
func (r *Report) answer(rules Rules, undeclared map[string][]string, designs []string, label map[string]string) {
	r.Answers, r.Figures, r.trades = nil, nil, make(map[string]bool)
	for _, d := range designs {
		var parts []string
		worse, better := false, false
		for _, n := range rules.At {
			dec, ok := r.decisions[d][n]
			if !ok || dec.Verdict == Pass || dec.Verdict == NotGated {
				continue
			}
			worse, better = worse || dec.Verdict == Regression || dec.Verdict == Missing, better || dec.Verdict == Improved
			said := dec.timeSaid
			if dec.Verdict == Inconclusive && dec.missedAt > 0 {
				said = "the prediction missed time at " + countWords(dec.missedAt)
			}
			parts = append(parts, figure(dec.by, n, dec.By, said))
			if dec.Verdict != Inconclusive && dec.by.Ratio > 0 {
				r.Figures = append(r.Figures, Figure{Design: label[d], At: n, Ratio: dec.by.Ratio, Unit: dec.by.Unit})
			}
		}
		parts = append(parts, undeclared[d]...)
		if len(parts) == 0 {
			continue
		}
		line := label[d] + ": " + strings.Join(parts, ", ")
		if worse && better {
			r.trades[d] = true
			line = label[d] + ": a trade: " + strings.Join(parts, ", ") + fmt.Sprintf("; -at names the counts that matter (-at %d judges %s alone)", rules.At[len(rules.At)-1], countWords(rules.At[len(rules.At)-1]))
		}
		r.Answers = append(r.Answers, line)
	}
}

// decidedVerdict is the overall verdict of the decisions: the worst,
// a TRADE where every REGRESSION is a trade's; ok is false where none
// was made (the report was never Decided, or decided nothing).
func (r *Report) decidedVerdict() (Verdict, bool) {
	v, any := Pass, false
	for _, at := range r.decisions {
		for _, dec := range at {
			any = true
			if dec.Verdict.Severity() > v.Severity() {
				v = dec.Verdict
			}
		}
	}
	if v == Regression && !r.untraded() {
		v = Trade
	}
	return v, any
}

// untraded says whether a design that is no trade has a REGRESSION.
func (r *Report) untraded() bool {
	for d, at := range r.decisions {
		for _, dec := range at {
			if dec.Verdict == Regression && !r.trades[d] {
				return true
			}
		}
	}
	return false
}

// DecidedOf is design name's worst decision over the declared counts
// (compare's order) and the witnesses that gave it, each at its count
// ("time at 2 threads"); "" where none was decided.
func (r *Report) DecidedOf(name string) (Verdict, []string) {
	var worst Verdict
	var who []string
	for _, d := range r.Decided {
		if d.Name != name || d.Verdict == NotGated {
			continue
		}
		w := witnessNames[d.By] + " at " + countWords(d.At)
		switch {
		case worst == "" || d.Verdict.Severity() > worst.Severity():
			worst, who = d.Verdict, []string{w}
		case d.Verdict == worst && !slices.Contains(who, w):
			who = append(who, w)
		}
	}
	return worst, who
}

// designLabels names each design for a line: its short name, or, where
// two designs share one (one implementation at two corpus sizes), its
// whole name, so no two lines of one report name one thing.
func designLabels(designs []string) map[string]string {
	seen := make(map[string]int)
	for _, d := range designs {
		seen[shortName(d)]++
	}
	out := make(map[string]string, len(designs))
	for _, d := range designs {
		out[d] = shortName(d)
		if seen[out[d]] > 1 {
			out[d] = strings.TrimSuffix(d, "/threads=1")
		}
	}
	return out
}

// shortName is a design's name for a line: its impl key, else the name
// without its thread count.
func shortName(d string) string {
	if impl := records.NameKey(d, "impl"); impl != "" {
		return impl
	}
	return strings.TrimSuffix(d, "/threads=1")
}
