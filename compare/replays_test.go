package compare

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// replayed is a report of design x at 1 and 2 threads: its time cells,
// its exact counts at 1 thread, decided at the declared counts at, 2
// cores, with need the units a verdict by counts needs.
func replayed(t1, t2 CellVerdict, counts []CellVerdict, at []int) *Report {
	r := &Report{Threshold: 0.05}
	t1.Name, t1.Unit = "Issuer/impl=x/threads=1", "sec/op"
	t2.Name, t2.Unit = "Issuer/impl=x/threads=2", "sec/op"
	r.Cells = append(r.Cells, t1, t2)
	for _, c := range counts {
		c.Name = t1.Name
		r.Cells = append(r.Cells, c)
	}
	r.finish()
	r.Decide(Rules{At: at, Cores: 2, Need: []string{records.Instructions}})
	return r
}

var (
	passTime         = CellVerdict{Verdict: Pass, Ratio: 0.99, Lo: 0.97, Hi: 1.02, Rounds: 10}
	noWindow         = CellVerdict{Verdict: Inconclusive, Reason: "0 complete rounds: 60 samples set aside"}
	sameInstructions = CellVerdict{Unit: records.Instructions, Verdict: Pass, Ratio: 1}
)

// TestNoImprovedOverSlowerTime: time at least 3.4% slower (+8.2%
// [+3.4%, +13.2%], spanning the threshold) beside 20.6% fewer
// instructions is no IMPROVED; nor is a PASS that leans +2.4%.
func TestNoImprovedOverSlowerTime(t *testing.T) {
	fewer := CellVerdict{Unit: records.Instructions, Verdict: Improved, Ratio: 0.794}
	for _, tm := range []CellVerdict{
		{Verdict: Inconclusive, Ratio: 1.082, Lo: 1.034, Hi: 1.132, Rounds: 10},
		{Verdict: Pass, Ratio: 1.024, Lo: 1.004, Hi: 1.045, Rounds: 10},
	} {
		r := replayed(tm, passTime, []CellVerdict{fewer}, []int{1})
		if r.Verdict == Improved {
			t.Errorf("time %+.1f%% [%+.1f%%, %+.1f%%], instructions -20.6%%: %s, want no IMPROVED", 100*(tm.Ratio-1), 100*(tm.Lo-1), 100*(tm.Hi-1), r.Verdict)
		}
	}
}

// TestACountedRegressionIsARegression: system calls 0 -> 0.2 a call,
// counted, where time kept no window (a busy host), is a REGRESSION, not
// undecided, at 1 thread and at ab's defaults.
func TestACountedRegressionIsARegression(t *testing.T) {
	syscalls := CellVerdict{Unit: records.Syscalls, Verdict: Regression, Reason: "syscalls 0 -> 0.2 per op"}
	r := replayed(noWindow, noWindow, []CellVerdict{sameInstructions, syscalls}, []int{1})
	if r.Verdict != Regression {
		t.Errorf("-at 1: a counted REGRESSION, time with no window: %s %q, want REGRESSION", r.Verdict, r.Answers)
	}
	if r := replayed(noWindow, noWindow, []CellVerdict{sameInstructions, syscalls}, []int{1, 2, 16}); r.Verdict != Regression {
		t.Errorf("-at 1,2,16: %s %q, want REGRESSION", r.Verdict, r.Answers)
	}
}

// TestMeasuredTimeIsNotOverruledInSilence: at 2 threads time measured
// -19.8% while the lock profile counted more exclusive locks: the count
// decides, and the answer says what time measured.
func TestMeasuredTimeIsNotOverruledInSilence(t *testing.T) {
	faster := CellVerdict{Verdict: Improved, Ratio: 0.802, Lo: 0.75, Hi: 0.85, Rounds: 10}
	locks := CellVerdict{Unit: records.ExclusiveLocks, Verdict: Regression, Reason: "operations take an exclusive lock: 0 -> 1 per op"}
	r := replayed(passTime, faster, []CellVerdict{sameInstructions, locks}, []int{1, 2})
	if len(r.Answers) != 1 || !strings.Contains(r.Answers[0], "-19.8%") {
		t.Errorf("answers %q: want the 2-thread line to say time measured -19.8%%", r.Answers)
	}
}

// TestEveryChangeIsTold: with -at 16, a 1-thread call 70% slower by time
// is not gated and is still in the answer, marked not declared.
func TestEveryChangeIsTold(t *testing.T) {
	slower := CellVerdict{Verdict: Regression, Ratio: 1.70, Lo: 1.629, Hi: 1.745, Rounds: 10}
	fast := CellVerdict{Unit: "predicted-sec/call@16threads", Verdict: Improved, Ratio: 0.151, Lo: 0.14, Hi: 0.16, Reason: "at 16 threads -84.9% a call"}
	r := replayed(slower, passTime, []CellVerdict{sameInstructions, fast}, []int{16})
	if r.Verdict != Improved || len(r.Answers) != 1 || !strings.Contains(r.Answers[0], "not declared: +70.0% a call at 1 thread (time)") {
		t.Errorf("-at 16: %s %q, want IMPROVED with the 1-thread +70.0%% told, not declared", r.Verdict, r.Answers)
	}
}
