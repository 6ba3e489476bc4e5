package compare

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

const pred16 = "predicted-sec/call@16threads"

// decided is a report of design x: time at 1 and 2 threads as given, its
// counts all PASS but the prediction at 16, decided at rules At.
func decided(t1, t2, p16 CellVerdict, at []int, predictedAt func(string, int) (CellVerdict, bool)) *Report {
	return decidedBy(t1, t2, p16, Rules{At: at, Cores: 2, Need: []string{records.Instructions, records.LLMisses, pred16}, PredictedAt: predictedAt})
}

func decidedBy(t1, t2, p16 CellVerdict, rules Rules) *Report {
	r := &Report{Threshold: 0.05}
	t1.Name, t1.Unit = "Issuer/impl=x/threads=1", "sec/op"
	t2.Name, t2.Unit = "Issuer/impl=x/threads=2", "sec/op"
	p16.Name, p16.Unit = "Issuer/impl=x/threads=1", pred16
	r.Cells = append(r.Cells, t1, t2,
		CellVerdict{Name: t1.Name, Unit: records.Instructions, Verdict: Pass, Ratio: 1},
		CellVerdict{Name: t1.Name, Unit: records.LLMisses, Verdict: Pass, Ratio: 1}, p16)
	r.finish()
	r.Decide(rules)
	return r
}

// timeAt is the shown time cell of design x at n threads.
func (r *Report) timeAt(t *testing.T, n int) CellVerdict {
	t.Helper()
	return verdictOf(t, r, fmt.Sprintf("Issuer/impl=x/threads=%d", n), "sec/op")
}

// decidedAt is the decision of design x at n threads; By is ByNone and
// the verdict empty where none was taken.
func (r *Report) decidedAt(n int) Decided {
	for _, d := range r.Decided {
		if d.Name == "Issuer/impl=x/threads=1" && d.At == n {
			return d
		}
	}
	return Decided{}
}

var undecidedTime = CellVerdict{Verdict: Inconclusive, Ratio: 0.98, Lo: 0.91, Hi: 1.06, Rounds: 10, Reason: "spans the threshold"}

// TestTradeIsNamed: slower at 1 thread, faster at 16 is a TRADE, with
// both figures in its line; -at 16 judges 16 alone and it is IMPROVED;
// -at 1 judges one thread alone and it is a REGRESSION.
func TestTradeIsNamed(t *testing.T) {
	slow := CellVerdict{Verdict: Regression, Ratio: 2.75, Lo: 2.6, Hi: 2.9, Rounds: 10}
	fast := CellVerdict{Verdict: Improved, Ratio: 0.075, Lo: 0.064, Hi: 0.35}
	r := decided(slow, undecidedTime, fast, []int{1, 2, 16}, nil)
	if r.Verdict != Trade || len(r.Answers) != 1 || !strings.Contains(r.Answers[0], "a trade: +175.0% a call at 1 thread (time)") ||
		!strings.Contains(r.Answers[0], "-92.5% a call at 16 threads (predicted)") {
		t.Errorf("-at 1,2,16: %s %q, want a TRADE naming both", r.Verdict, r.Answers)
	}
	if r := decided(slow, undecidedTime, fast, []int{16}, nil); r.Verdict != Improved || r.timeAt(t, 1).Verdict != NotGated {
		t.Errorf("-at 16: %s (1 thread %s), want IMPROVED with 1 thread not gated", r.Verdict, r.timeAt(t, 1).Verdict)
	}
	if r := decided(slow, undecidedTime, fast, []int{1}, nil); r.Verdict != Regression || verdictOf(t, r, "Issuer/impl=x/threads=1", pred16).Verdict != NotGated {
		t.Errorf("-at 1: %s, want REGRESSION with 16 threads not gated", r.Verdict)
	}
	// The line says why, where the prediction names a cause.
	fast.Reason = "at 16 threads -92.5% a call [-93.6%, -65.4%]: calls take no exclusive lock, 1.23 -> 0 per op (alone -98.7%)"
	fast.Cause = "calls take no exclusive lock"
	if r := decided(slow, undecidedTime, fast, []int{1, 2, 16}, nil); !strings.Contains(r.Answers[0], "at 16 threads (predicted: calls take no exclusive lock)") {
		t.Errorf("the answer names no cause: %q", r.Answers)
	}
	// Worse at both counts is no trade.
	worse := fast
	worse.Verdict, worse.Ratio = Regression, 3
	if r := decided(slow, undecidedTime, worse, []int{1, 2, 16}, nil); r.Verdict != Regression {
		t.Errorf("worse at 1 and 16: %s, want REGRESSION", r.Verdict)
	}
}

// TestImprovedByCounts: where time cannot decide at 2 threads and the
// prediction there improves, with no count worse, the cell is IMPROVED by
// counts, and the whole IMPROVED.
func TestImprovedByCounts(t *testing.T) {
	better := CellVerdict{Verdict: Improved, Ratio: 0.854, Reason: "at 2 threads -14.6% a call"}
	at := func(string, int) (CellVerdict, bool) { return better, true }
	pass := CellVerdict{Verdict: Pass, Ratio: 1, Lo: 0.97, Hi: 1.03, Rounds: 10}
	r := decided(pass, undecidedTime, better, []int{1, 2, 16}, at)
	if c := r.timeAt(t, 2); r.Verdict != Improved || c.Verdict != Improved || !c.ByCounts || r.decidedAt(2).By != ByCounts || r.decidedAt(2).Prediction != PredictionBetter {
		t.Errorf("%s; 2 threads %s %+v: want IMPROVED by counts, the prediction better", r.Verdict, c.Verdict, r.decidedAt(2))
	}
	if r := decided(pass, undecidedTime, better, []int{1, 2, 16}, nil); r.timeAt(t, 2).Verdict != Pass || !r.timeAt(t, 2).ByCounts {
		t.Errorf("without a prediction at 2: %s, want a PASS by counts", r.timeAt(t, 2).Verdict)
	}
	slower := undecidedTime
	slower.Ratio = 1.031
	if r := decided(pass, slower, better, []int{1, 2, 16}, at); r.timeAt(t, 2).Verdict != Pass || !r.timeAt(t, 2).ByCounts {
		t.Errorf("time leaning +3.1%%: %s, want a PASS by counts, not an IMPROVED", r.timeAt(t, 2).Verdict)
	}
	// A centre past the threshold is neither: counts never PASS it.
	slower.Ratio = 1.069
	if r := decided(pass, slower, better, []int{1, 2, 16}, at); r.timeAt(t, 2).Verdict != Inconclusive || r.timeAt(t, 2).ByCounts || r.Verdict != Inconclusive || r.decidedAt(2).Time != TimeCentrePast {
		t.Errorf("time's centre +6.9%%: %s (overall %s), want INCONCLUSIVE", r.timeAt(t, 2).Verdict, r.Verdict)
	}
	strict := decidedBy(pass, undecidedTime, better, Rules{At: []int{1, 2, 16}, Cores: 2, Strict: true, Need: []string{records.Instructions}, PredictedAt: at})
	if strict.timeAt(t, 2).Verdict != Inconclusive {
		t.Errorf("-strict: %s, want time's INCONCLUSIVE", strict.timeAt(t, 2).Verdict)
	}
}

// TestNoVerdictByCountsOverWhatTimeSaw: time wholly past the threshold
// (its A/A arm too noisy to call it a REGRESSION), or an arm with no kept
// sample, is no PASS by counts, at the defaults.
func TestNoVerdictByCountsOverWhatTimeSaw(t *testing.T) {
	same := CellVerdict{Verdict: Pass, Ratio: 1}
	past := CellVerdict{Verdict: Inconclusive, Ratio: 1.145, Lo: 1.14, Hi: 1.157, Rounds: 10, Reason: "the A/A arm moved +10%"}
	r := decided(past, undecidedTime, same, DefaultAtForTest, nil)
	if c := r.timeAt(t, 1); c.Verdict != Inconclusive || c.ByCounts || r.decidedAt(1).Verdict != Inconclusive || r.Verdict != Inconclusive {
		t.Errorf("time +14.5%% [+14.0%%, +15.7%%]: %s %+v, overall %s; want INCONCLUSIVE", c.Verdict, r.decidedAt(1), r.Verdict)
	}
	none := CellVerdict{Verdict: Inconclusive, Reason: "0 complete rounds"}
	r = decided(same, none, same, DefaultAtForTest, nil)
	if c := r.timeAt(t, 2); c.Verdict != Inconclusive || r.decidedAt(2).Time != TimeNoWindow || r.decidedAt(2).Verdict != Inconclusive {
		t.Errorf("no kept sample: %s %+v; want INCONCLUSIVE", c.Verdict, r.decidedAt(2))
	}
}

// DefaultAtForTest are ab's default declared counts.
var DefaultAtForTest = []int{1, 2, 16}

// TestAPassByCountsSaysWhatMoved: a lock profile that moved, which the
// prediction at 2 threads puts within the threshold, is a PASS by counts
// that names the move; it never says the locks were unchanged.
func TestAPassByCountsSaysWhatMoved(t *testing.T) {
	within := CellVerdict{Verdict: Pass, Ratio: 1.02, Reason: "at 2 threads +2.0% a call"}
	at := func(string, int) (CellVerdict, bool) { return within, true }
	pass := CellVerdict{Verdict: Pass, Ratio: 1, Lo: 0.97, Hi: 1.03, Rounds: 10}
	r := &Report{Threshold: 0.05}
	t1 := pass
	t1.Name, t1.Unit = "Issuer/impl=x/threads=1", "sec/op"
	t2 := undecidedTime
	t2.Name, t2.Unit = "Issuer/impl=x/threads=2", "sec/op"
	r.Cells = append(r.Cells, t1, t2,
		CellVerdict{Name: t1.Name, Unit: records.Instructions, Verdict: Pass, Ratio: 1},
		CellVerdict{Name: t1.Name, Unit: records.ExclusiveLocks, Verdict: NotGated, Ratio: 0.78},
		CellVerdict{Name: t1.Name, Unit: pred16, Verdict: Pass, Ratio: 1.02})
	r.finish()
	r.Decide(Rules{At: []int{1, 2, 16}, Cores: 2, Need: []string{records.Instructions}, PredictedAt: at})
	c := r.timeAt(t, 2)
	if c.Verdict != Pass || !c.ByCounts || strings.Contains(c.Reason, "unchanged") ||
		!strings.Contains(c.Reason, records.ExclusiveLocks+" moved") || !strings.Contains(c.Reason, "at 2 threads +2.0%") {
		t.Errorf("%s %q: want a PASS by counts naming the moved lock count and the prediction", c.Verdict, c.Reason)
	}
}

// TestACellTheHostNeverRanIsJudgedAsOnePastTheCores: beside a busy loop a
// 2-core host disturbs every window of a 2-thread cell, so time keeps no
// round of it. That count is then judged as one past the cores is: by the
// prediction, which needs no time; the cell is shown, not gated, and says
// why. Identical code is then a PASS, where it was INCONCLUSIVE. -strict
// keeps it INCONCLUSIVE; with no count past the cores declared, the
// prediction within the cores (held to the runner's measurements) judges
// it all the same.
func TestACellTheHostNeverRanIsJudgedAsOnePastTheCores(t *testing.T) {
	same := CellVerdict{Verdict: Pass, Ratio: 1, Lo: 0.98, Hi: 1.02, Rounds: 10}
	none := CellVerdict{Verdict: Inconclusive, Reason: "0 complete rounds: 60 samples set aside"}
	unchanged := func(d string, n int) (CellVerdict, bool) {
		return CellVerdict{Name: d, Unit: fmt.Sprintf("predicted-sec/call@%dthreads", n), Verdict: Pass, Ratio: 1, Reason: fmt.Sprintf("at %d threads unchanged", n)}, true
	}
	r := decided(same, none, CellVerdict{Verdict: Pass, Ratio: 1}, DefaultAtForTest, unchanged)
	if c := r.timeAt(t, 2); r.Verdict != Pass || c.Verdict != NotGated || r.decidedAt(2).By != ByPrediction || r.decidedAt(2).Time != TimeNoWindow {
		t.Errorf("%s; 2 threads %s %+v: want PASS, judged by the prediction at 2", r.Verdict, c.Verdict, r.decidedAt(2))
	}
	if !slices.ContainsFunc(r.Cells, func(c CellVerdict) bool { return c.Unit == "predicted-sec/call@2threads" && c.Verdict == Pass }) {
		t.Errorf("the prediction at 2 threads is not among the verdicts: %+v", r.Cells)
	}
	worse := func(d string, n int) (CellVerdict, bool) {
		return CellVerdict{Name: d, Unit: fmt.Sprintf("predicted-sec/call@%dthreads", n), Verdict: Regression, Ratio: 1.5, Reason: "calls take an exclusive lock"}, true
	}
	if r := decided(same, none, CellVerdict{Verdict: Pass, Ratio: 1}, DefaultAtForTest, worse); r.Verdict != Regression {
		t.Errorf("a lock taken, 2 threads unmeasured: %s, want the prediction's REGRESSION", r.Verdict)
	}
	strict := decidedBy(same, none, CellVerdict{Verdict: Pass, Ratio: 1}, Rules{At: DefaultAtForTest, Cores: 2, Strict: true, PredictedAt: unchanged})
	if strict.Verdict != Inconclusive {
		t.Errorf("-strict: %s, want INCONCLUSIVE", strict.Verdict)
	}
	if r := decided(same, none, CellVerdict{Verdict: Pass, Ratio: 1}, []int{1, 2}, unchanged); r.Verdict != Pass {
		t.Errorf("-at 1,2: %s, want PASS by the prediction within the cores", r.Verdict)
	}
}

// TestNoWitnessSaysSo: where the host kept no window of any time cell
// and nothing counted or predicted speaks, the report is INCONCLUSIVE
// and its note says that no witness decided a declared count.
func TestNoWitnessSaysSo(t *testing.T) {
	none := CellVerdict{Verdict: Inconclusive, Reason: "0 complete rounds: 60 samples set aside"}
	r := &Report{Threshold: 0.05}
	for _, n := range []int{1, 2} {
		c := none
		c.Name, c.Unit = fmt.Sprintf("Issuer/impl=x/threads=%d", n), "sec/op"
		r.Cells = append(r.Cells, c)
	}
	r.finish()
	r.Decide(Rules{At: []int{1, 2}, Cores: 2})
	notes := strings.Join(r.Warnings, "\n")
	if r.Verdict != Inconclusive || !strings.Contains(notes, "nothing was gated on time: no witness decided any declared count") {
		t.Errorf("%s, notes %q: want INCONCLUSIVE, saying no witness decided a declared count", r.Verdict, notes)
	}
}

// TestNoTimeCellWithinTheCoresLeavesTheCountsExact: a run that measured
// 1 thread alone, judged at -at 1,2 on 2 cores, has no time cell at 2: a
// lock count that got worse decides it there (REGRESSION, counted), where
// the prediction at 2 once outvoted it as if 2 threads were past the
// cores.
func TestNoTimeCellWithinTheCoresLeavesTheCountsExact(t *testing.T) {
	r := &Report{Threshold: 0.05}
	one := "Issuer/impl=x/threads=1"
	r.Cells = append(r.Cells,
		CellVerdict{Name: one, Unit: "sec/op", Verdict: Pass, Ratio: 1, Lo: 0.98, Hi: 1.02, Rounds: 10},
		CellVerdict{Name: one, Unit: records.Instructions, Verdict: Pass, Ratio: 1},
		CellVerdict{Name: one, Unit: records.ExclusiveLocks, Verdict: Regression, Ratio: 2})
	r.finish()
	better := func(d string, n int) (CellVerdict, bool) {
		return CellVerdict{Name: d, Unit: fmt.Sprintf("predicted-sec/call@%dthreads", n), Verdict: Improved, Ratio: 0.6}, true
	}
	r.Decide(Rules{At: []int{1, 2}, Cores: 2, Need: []string{records.Instructions}, PredictedAt: better})
	if d := r.decidedAt(2); d.Verdict != Regression || d.By != ByCounted {
		t.Errorf("at 2 threads, no time cell, a lock count worse: %+v, want REGRESSION, counted", d)
	}
}

// TestAPredictedAnswerSaysWhatItWasHeldTo: a figure the prediction gave
// is read beside what the prediction was held to, once, and a figure time
// gave, or a PASS, brings none.
func TestAPredictedAnswerSaysWhatItWasHeldTo(t *testing.T) {
	held := func(n int) string { return fmt.Sprintf("held at %d", n) }
	slow := CellVerdict{Verdict: Regression, Ratio: 2.75, Lo: 2.6, Hi: 2.9, Rounds: 10}
	fast := CellVerdict{Verdict: Improved, Ratio: 0.075, Lo: 0.064, Hi: 0.35}
	rules := Rules{At: []int{1, 2, 16}, Cores: 2, Need: []string{records.Instructions, records.LLMisses, pred16}, Held: held}
	r := decidedBy(slow, undecidedTime, fast, rules)
	if !slices.Equal(r.Held, []string{"held at 16"}) {
		t.Errorf("a predicted answer at 16 threads: held %q, want [held at 16]", r.Held)
	}
	var out strings.Builder
	r.writeHead(&out)
	if !strings.Contains(out.String(), "  held at 16\n") {
		t.Errorf("the verdict's head does not say what the prediction was held to:\n%s", out.String())
	}
	same := CellVerdict{Verdict: Pass, Ratio: 1}
	if r := decidedBy(slow, undecidedTime, same, rules); len(r.Held) != 0 {
		t.Errorf("no predicted answer (time at 1 thread, PASS at 16): held %q, want none", r.Held)
	}
}

// TestAPredictionThatMissedTimeIsNoWitness: a prediction of -22.9% at
// every count beside a 1-thread time cell of +2.0% [+1.9%, +2.3%] misses
// it by more than it was held to: at 16 threads it decides nothing
// alone, and its cell says why. Where the time cell agrees with it, or
// nothing holds it (Miss 0), it decides as before.
func TestAPredictionThatMissedTimeIsNoWitness(t *testing.T) {
	p := CellVerdict{Verdict: Improved, Ratio: 0.771, Lo: 0.771, Hi: 0.771, Reason: "at 16 threads -22.9% a call"}
	at := func(string, int) (CellVerdict, bool) { return p, true }
	noWindow := CellVerdict{Verdict: Inconclusive, Reason: "no window"}
	rules := Rules{At: []int{1, 2, 16}, Cores: 2, Need: []string{records.Instructions}, PredictedAt: at, Miss: func(int) float64 { return 0.26 }}

	slower := CellVerdict{Verdict: Pass, Ratio: 1.020, Lo: 1.019, Hi: 1.023, Rounds: 10}
	r := decidedBy(slower, noWindow, p, rules)
	d := r.decidedAt(16)
	if d.Prediction != PredictionMissed || d.Verdict == Improved || !strings.Contains(d.Why, "missed time at 1 thread: predicted -22.9% a call, measured +2.0% [+1.9%, +2.3%]") {
		t.Errorf("a prediction time contradicted decided 16 threads: %+v", d)
	}
	if c := verdictOf(t, r, "Issuer/impl=x/threads=1", pred16); c.Verdict != NotGated || !strings.Contains(c.Reason, "no witness alone") {
		t.Errorf("the prediction's cell does not say it is no witness alone: %+v", c)
	}
	if len(r.Answers) != 1 || !strings.Contains(r.Answers[0], "undecided at 16 threads (the prediction missed time at 1 thread)") {
		t.Errorf("the answer does not say why 16 threads is undecided: %q", r.Answers)
	}

	for _, k := range []struct {
		name  string
		t1    CellVerdict
		rules Rules
	}{
		{"time measured what it predicted", CellVerdict{Verdict: Improved, Ratio: 0.80, Lo: 0.79, Hi: 0.81, Rounds: 10}, rules},
		{"nothing holds it", slower, Rules{At: rules.At, Cores: 2, Need: rules.Need, PredictedAt: at}},
	} {
		r := decidedBy(k.t1, noWindow, p, k.rules)
		if d := r.decidedAt(16); d.Verdict != Improved || d.By != ByPrediction || d.Prediction != PredictionBetter {
			t.Errorf("%s: at 16 threads %+v, want IMPROVED by the prediction", k.name, d)
		}
	}
}

// TestTheDecidedLineSaysWhyTimeIsMissing: time with no window at 1 and 2
// threads, the counts deciding: the line under the verdict says time kept
// too few rounds, or, where ab measured none on purpose (-time), why.
func TestTheDecidedLineSaysWhyTimeIsMissing(t *testing.T) {
	noWindow := CellVerdict{Verdict: Inconclusive, Reason: "2 complete rounds", Rounds: 2}
	same := CellVerdict{Verdict: Pass, Ratio: 1}
	r := decidedBy(noWindow, noWindow, same, Rules{At: []int{1, 2}, Cores: 2, Need: []string{records.Instructions}})
	if line := r.DecidedLine(); !strings.Contains(line, "at 1 thread by the counts (time kept 2 rounds of the 5 a verdict needs in 1 of 1 designs)") {
		t.Errorf("the line does not say time kept too few rounds: %q", line)
	}
	r.Untimed = "-time off"
	if line := r.DecidedLine(); !strings.Contains(line, "at 1 thread by the counts (time not measured: -time off)") || strings.Contains(line, "time kept") {
		t.Errorf("the line does not say time was not measured, and why: %q", line)
	}
}

// TestCountsNoWorseBesideAnUndecidedPredictionPass: the host kept no
// window at 1 or 2 threads, every count unchanged, and the prediction at
// 2 threads +1.0% with its band across the threshold (a read lock split
// in shards): 2 threads is a PASS by the counts, never IMPROVED, and the
// verdict rests on what was decided, IMPROVED at 16 threads. A middle
// slower past the threshold, or a prediction that missed time, leaves 2
// threads undecided.
func TestCountsNoWorseBesideAnUndecidedPredictionPass(t *testing.T) {
	noWindow := CellVerdict{Verdict: Inconclusive, Reason: "no window"}
	fast16 := CellVerdict{Verdict: Improved, Ratio: 0.138, Lo: 0.138, Hi: 0.155, Reason: "at 16 threads -86.2% a call"}
	decide := func(t1, at2 CellVerdict, miss float64) *Report {
		at := func(_ string, n int) (CellVerdict, bool) {
			if n == 2 {
				return at2, true
			}
			return fast16, true
		}
		rules := Rules{At: []int{1, 2, 16}, Cores: 2, Need: []string{records.Instructions}, PredictedAt: at}
		if miss > 0 {
			rules.Miss = func(int) float64 { return miss }
		}
		r := &Report{Threshold: 0.05}
		name := "Issuer/impl=x/threads=1"
		t1.Name, t1.Unit = name, "sec/op"
		r.Cells = append(r.Cells, t1,
			CellVerdict{Name: "Issuer/impl=x/threads=2", Unit: "sec/op", Verdict: noWindow.Verdict, Reason: noWindow.Reason},
			CellVerdict{Name: name, Unit: records.Instructions, Verdict: Pass, Ratio: 1.033},
			CellVerdict{Name: name, Unit: records.Atomics, Verdict: Pass, Ratio: 1},
			CellVerdict{Name: name, Unit: records.ExclusiveLocks, Verdict: Pass, Ratio: 1},
			CellVerdict{Name: name, Unit: pred16, Verdict: fast16.Verdict, Ratio: fast16.Ratio, Lo: fast16.Lo, Hi: fast16.Hi, Reason: fast16.Reason})
		r.finish()
		r.Decide(rules)
		return r
	}
	notSlower := CellVerdict{Verdict: Inconclusive, Ratio: 1.0099, Lo: 0.348, Hi: 2.929, Reason: "band spans the threshold"}
	r := decide(noWindow, notSlower, 0)
	if d := r.decidedAt(2); d.Verdict != Pass || d.By != ByCounts || d.Prediction != PredictionMiddleNotSlower || !strings.Contains(d.Why, "no IMPROVED") {
		t.Errorf("at 2 threads %+v, want a PASS by the counts", d)
	}
	if r.Verdict != Improved {
		t.Errorf("verdict %s, want IMPROVED: it rests on what was decided", r.Verdict)
	}
	pastIt := notSlower
	pastIt.Ratio, pastIt.Lo, pastIt.Hi = 1.06, 0.366, 3.07
	// Time's cell at 1 thread is +2.0%, where the prediction says -22.9%.
	slower := CellVerdict{Verdict: Pass, Ratio: 1.020, Lo: 1.019, Hi: 1.023, Rounds: 10}
	fast1 := notSlower
	fast1.Ratio = 0.771
	for _, k := range []struct {
		name    string
		t1, at2 CellVerdict
		miss    float64
	}{
		{"a middle slower past the threshold", noWindow, pastIt, 0},
		{"one with no middle", noWindow, CellVerdict{Verdict: Inconclusive}, 0},
		{"one that missed time at 1 thread", slower, fast1, 0.06},
	} {
		if d := decide(k.t1, k.at2, k.miss).decidedAt(2); d.Verdict != Inconclusive {
			t.Errorf("%s: at 2 threads %+v, want it undecided", k.name, d)
		}
	}
}
