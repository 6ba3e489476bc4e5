package cli

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness/bisect"
	"github.com/perfrun/perfrun/harness/compare"
)

// TestBisectUsage: what bisect refuses before measuring anything.
func TestBisectUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bisect"},
		{"bisect", "HEAD"},
		{"bisect", "-threshold", "0", "HEAD~1", "HEAD"},
		{"bisect", "-step", "1", "HEAD~1", "HEAD"},
		{"bisect", "-repo", t.TempDir(), "HEAD~1", "HEAD"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(&stdout, &stderr, args); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (usage): %s", args, code, exitUsage, stderr.String())
		}
	}
}

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
	b := &bisectOptions{}
	b.follow(whole)
	if b.tracked != hashmap || strings.Join(b.abFlagsForTracked, " ") != "-workload issuer -impl hashmap -param certs=1024 -param hit=1 -threads 1" {
		t.Fatalf("followed %q with %q", b.tracked, b.abFlagsForTracked)
	}
	for _, tc := range []struct {
		time, instr compare.Verdict
		thr         float64
		want        bisect.Outcome
	}{
		{compare.Regression, compare.Regression, 0.04, bisect.Moved},
		{compare.Inconclusive, compare.Regression, 0.04, bisect.Moved},
		{compare.Pass, compare.Pass, 0.04, bisect.Same},
		{compare.Pass, compare.Inconclusive, 0.04, bisect.Undecided},
		{compare.Inconclusive, compare.Pass, 0.04, bisect.Undecided},
		{compare.Improved, compare.Pass, 0.04, bisect.Against},
		{compare.Improved, compare.Improved, -0.04, bisect.Moved}, // an improvement's step
		{compare.Regression, compare.Pass, -0.04, bisect.Against},
	} {
		rep := compare.Report{Cells: []compare.CellVerdict{
			{Name: hashmap, Unit: "sec/op", Verdict: tc.time, Ratio: 1.05, Lo: 1.02, Hi: 1.08},
			{Name: hashmap, Unit: "instructions/op", Verdict: tc.instr, Ratio: 1.07},
		}}
		var m bisect.Measurement
		b.judge(&m, rep, tc.thr)
		if m.Outcome != tc.want || math.Abs(m.Shift-0.05) > 1e-9 || math.Abs(m.Instructions-0.07) > 1e-9 {
			t.Errorf("time %s, instructions %s at %+.2f: %s (shift %+.3f, instructions %+.3f), want %s", tc.time, tc.instr, tc.thr, m.Outcome, m.Shift, m.Instructions, tc.want)
		}
	}
}
