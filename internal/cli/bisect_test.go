package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

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

// TestBisectOutputs: the summary, bisect.md and the JSON of a search that
// found two culprits, one without a count; and exit 3 for no step.
func TestBisectOutputs(t *testing.T) {
	dir := t.TempDir()
	b := &bisectOptions{revisionCells: revisionCells{repo: dir}, outDir: dir, jsonOut: dir + "/b.json", quiet: true, probe: &bisect.ABProbe{Follower: bisect.Follower{Tracked: "Issuer/impl=hashmap/threads=1"}}}
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
