package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/bisect"
	"github.com/perfrun/perfrun/internal/subcommand"
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
		if code := run(&stdout, &stderr, args); code != subcommand.ExitUsage {
			t.Errorf("%q: exit %d, want %d (usage): %s", args, code, subcommand.ExitUsage, stderr.String())
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
	if b.CountSees {
		t.Error("the count sees a step it was not taken for")
	}
	whole.Cells = append(whole.Cells, compare.CellVerdict{Name: hashmap, Unit: "instructions/op", Verdict: compare.Regression, Ratio: 1.14})
	b.follow(whole)
	if !b.CountSees {
		t.Error("a step that showed in the count: countSees false")
	}
	if b.Tracked != hashmap || b.workload != "issuer" || b.impl != "hashmap" || b.threads != "1" || strings.Join(b.params, " ") != "certs=1024 hit=1" {
		t.Fatalf("followed %q as -workload %q -impl %q -threads %q -param %q", b.Tracked, b.workload, b.impl, b.threads, b.params)
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
		{compare.Inconclusive, compare.Pass, 0.04, bisect.Same}, // the step showed in the count
		{compare.Improved, compare.Pass, 0.04, bisect.Against},
		{compare.Improved, compare.Improved, -0.04, bisect.Moved}, // an improvement's step
		{compare.Regression, compare.Pass, -0.04, bisect.Against},
	} {
		rep := compare.Report{Cells: []compare.CellVerdict{
			{Name: hashmap, Unit: "sec/op", Verdict: tc.time, Ratio: 1.05, Lo: 1.02, Hi: 1.08},
			{Name: hashmap, Unit: "instructions/op", Verdict: tc.instr, Ratio: 1.07},
		}}
		var m bisect.Measurement
		b.Judge(&m, rep, tc.thr)
		if tc.time == compare.Inconclusive && tc.instr == compare.Pass {
			// Where the count did not see the step, time alone decides.
			blind := *b
			blind.CountSees = false
			var m2 bisect.Measurement
			blind.Judge(&m2, rep, tc.thr)
			if m2.Outcome != bisect.Undecided {
				t.Errorf("time undecided, a count that did not see the step: %s, want undecided", m2.Outcome)
			}
		}
		if m.Outcome != tc.want || math.Abs(m.Shift-0.05) > 1e-9 || math.Abs(m.Instructions-0.07) > 1e-9 {
			t.Errorf("time %s, instructions %s at %+.2f: %s (shift %+.3f, instructions %+.3f), want %s", tc.time, tc.instr, tc.thr, m.Outcome, m.Shift, m.Instructions, tc.want)
		}
	}
}

// TestBisectOutputs: the summary, bisect.md and the JSON of a search that
// found two culprits, one without a count; and exit 3 for no step.
func TestBisectOutputs(t *testing.T) {
	dir := t.TempDir()
	b := &bisectOptions{revisionCells: revisionCells{repo: dir}, outDir: dir, jsonOut: dir + "/b.json", quiet: true, Follower: bisect.Follower{Tracked: "Issuer/impl=hashmap/threads=1"}}
	r := &bisect.Result{Found: true, Step: bisect.Measurement{Base: "c0", Head: "c16", Shift: 0.16, Instructions: math.NaN()},
		Culprits: []bisect.Culprit{{Commit: "c5", Before: "c4", Shift: 0.08, Instructions: 0.081, Share: 0.5},
			{Commit: "c11", Before: "c10", Shift: 0.08, Instructions: math.NaN(), Share: 0.5}},
		Skipped: map[string]string{"c12": "does not build"},
		Probes: []bisect.Measurement{{Base: "c0", Head: "c16", Shift: 0.16, Instructions: math.NaN(), Outcome: bisect.Moved,
			NoCount: "no instruction verdict: valgrind: exit status 2: I refs: 0"}}}
	var stdout, stderr bytes.Buffer
	if err := b.finish(context.Background(), &subcommand.Streams{Stdout: &stdout, Stderr: &stderr}, r); err != nil {
		t.Fatalf("found: %v", err)
	}
	for _, want := range []string{"FOUND", "in 2 steps", "c5 time +8.0%, instructions +8.10% (50% of the step)", "skipped c12"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout.String())
		}
	}
	data, err := os.ReadFile(dir + "/b.json")
	var got bisect.Record
	if err != nil || json.Unmarshal(data, &got) != nil || got.Verdict != "FOUND" || len(got.Culprits) != 2 || got.Culprits[1].Instructions != nil {
		t.Errorf("JSON %s (%v)", data, err)
	}
	// A count that failed says why in the table and the JSON; its column was blank.
	if len(got.Probes) != 1 || !strings.Contains(got.Probes[0].NoCount, "I refs: 0") {
		t.Errorf("the JSON's probe does not say why it has no count: %s", data)
	}
	if md, err := os.ReadFile(dir + "/bisect.md"); err != nil || !strings.Contains(string(md), "| 1 | `c16`") || !strings.Contains(string(md), "not counted: valgrind: exit status 2") {
		t.Errorf("bisect.md: %v\n%s", err, md)
	}
	none := &bisect.Result{NoStep: true, Why: "no step", Step: bisect.Measurement{Instructions: math.NaN()}}
	if err := b.finish(context.Background(), &subcommand.Streams{Stdout: &stdout, Stderr: &stderr}, none); program.ExitCode(cmdBisect, err, &stderr) != subcommand.ExitInconclusive {
		t.Errorf("no step: %v, want exit %d", err, subcommand.ExitInconclusive)
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
	var b bisectOptions
	m := bisect.Measurement{Instructions: math.NaN()}
	b.Judge(&m, rep, 0.05)
	if math.IsNaN(m.Instructions) || math.Abs(m.Instructions-0.003) > 1e-9 {
		t.Errorf("instructions %v, want +0.3%%", m.Instructions)
	}
	if m.Outcome != bisect.Same || !strings.Contains(m.Verdict, "the count: PASS") {
		t.Errorf("outcome %v, verdict %q", m.Outcome, m.Verdict)
	}
}
