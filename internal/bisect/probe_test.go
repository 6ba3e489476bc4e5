package bisect

import (
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
)

// TestBisectFollowsAndJudges: the cell that moved most is followed and
// measured alone; a probe is moved when time or the count moved the
// step's way, the same only when both passed.
func TestBisectFollowsAndJudges(t *testing.T) {
	hashmap := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	whole := compare.Report{Verdict: compare.Regression, Cells: []compare.CellVerdict{
		{Name: "Issuer/impl=rcu/certs=1024/hit=1/threads=1", Unit: "sec/op", Verdict: compare.Regression, Ratio: 1.06},
		{Name: hashmap, Unit: "sec/op", Verdict: compare.Regression, Ratio: 1.16, Lo: 1.13, Hi: 1.19},
		{Name: "Issuer/impl=sorted/certs=1024/hit=1/threads=2", Unit: "sec/op", Verdict: compare.Pass, Ratio: 1.30},
	}}
	b := &ABProbe{}
	b.follow(whole)
	if b.CountSees {
		t.Error("the count sees a step it was not taken for")
	}
	whole.Cells = append(whole.Cells, compare.CellVerdict{Name: hashmap, Unit: "instructions/op", Verdict: compare.Regression, Ratio: 1.14})
	b.follow(whole)
	if !b.CountSees {
		t.Error("a step that showed in the count: countSees false")
	}
	if b.Tracked != hashmap || b.Cells.Workload != "issuer" || b.Cells.Impl != "hashmap" || b.Cells.Threads != "1" || strings.Join(b.Cells.Params, " ") != "certs=1024 hit=1" {
		t.Fatalf("followed %q as -workload %q -impl %q -threads %q -param %q", b.Tracked, b.Cells.Workload, b.Cells.Impl, b.Cells.Threads, b.Cells.Params)
	}
	for _, tc := range []struct {
		time, instr compare.Verdict
		thr         float64
		want        Outcome
	}{
		{compare.Regression, compare.Regression, 0.04, Moved},
		{compare.Inconclusive, compare.Regression, 0.04, Moved},
		{compare.Pass, compare.Pass, 0.04, Same},
		{compare.Pass, compare.Inconclusive, 0.04, Undecided},
		{compare.Inconclusive, compare.Pass, 0.04, Same}, // the step showed in the count
		{compare.Improved, compare.Pass, 0.04, Against},
		{compare.Improved, compare.Improved, -0.04, Moved}, // an improvement's step
		{compare.Regression, compare.Pass, -0.04, Against},
	} {
		rep := compare.Report{Cells: []compare.CellVerdict{
			{Name: hashmap, Unit: "sec/op", Verdict: tc.time, Ratio: 1.05, Lo: 1.02, Hi: 1.08},
			{Name: hashmap, Unit: "instructions/op", Verdict: tc.instr, Ratio: 1.07},
		}}
		var m Measurement
		b.Judge(&m, rep, tc.thr)
		if tc.time == compare.Inconclusive && tc.instr == compare.Pass {
			// Where the count did not see the step, time alone decides.
			blind := *b
			blind.CountSees = false
			var m2 Measurement
			blind.Judge(&m2, rep, tc.thr)
			if m2.Outcome != Undecided {
				t.Errorf("time undecided, a count that did not see the step: %s, want undecided", m2.Outcome)
			}
		}
		if m.Outcome != tc.want || math.Abs(m.Shift-0.05) > 1e-9 || math.Abs(m.Instructions-0.07) > 1e-9 {
			t.Errorf("time %s, instructions %s at %+.2f: %s (shift %+.3f, instructions %+.3f), want %s", tc.time, tc.instr, tc.thr, m.Outcome, m.Shift, m.Instructions, tc.want)
		}
	}
}

// TestEveryProbeShowsItsCount: a probe of a range where nothing moved
// (no cell followed) still shows its instruction count, as its verdict
// does; the table left the column empty.
func TestEveryProbeShowsItsCount(t *testing.T) {
	rep := compare.Report{Verdict: compare.Pass, Cells: []compare.CellVerdict{
		{Name: "Issuer/impl=rcu/threads=1", Unit: "sec/op", Verdict: compare.Pass, Ratio: 1.01, Lo: 0.99, Hi: 1.03, Reason: "+1.0%: any slowdown is below the 5% threshold; instructions +0.30%"},
		{Name: "Issuer/impl=rcu/threads=1", Unit: "instructions/op", Verdict: compare.Pass, Ratio: 1.003},
	}}
	var b ABProbe
	m := Measurement{Instructions: math.NaN()}
	b.Judge(&m, rep, 0.05)
	if math.IsNaN(m.Instructions) || math.Abs(m.Instructions-0.003) > 1e-9 {
		t.Errorf("instructions %v, want +0.3%%", m.Instructions)
	}
	if m.Outcome != Same || !strings.Contains(m.Verdict, "the count: PASS") {
		t.Errorf("outcome %v, verdict %q", m.Outcome, m.Verdict)
	}
}
