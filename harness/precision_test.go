package harness_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"golang.org/x/perf/benchmath"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/workloads"
)

// TestPrecisionAddsRoundsWithinBudget: a precision no machine gives keeps
// adding rounds until the time budget, then names the cells that did not
// get there; an easy one stops early with none named.
func TestPrecisionAddsRoundsWithinBudget(t *testing.T) {
	cs := cells(t, workloads.Empty, nil, 1)[:1]
	opts := options(2)
	opts.Window, opts.Warmup = 5*time.Millisecond, time.Millisecond
	// Rounds added to re-measure what the machine disturbed are the
	// quarantine's, not precision's: under a loaded test run they pushed
	// the easy case past its bound. This test counts precision's alone.
	opts.Quarantine = harness.Quarantine{}
	// A budget of several rounds even when a loaded machine makes a round
	// take a quarter of a second.
	opts.Precision, opts.MaxTime = 1e-9, 2*time.Second
	start := time.Now()
	res, err := harness.Run(context.Background(), cs, opts)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if took > 2*opts.MaxTime+time.Second {
		t.Errorf("took %v with a budget of %v", took, opts.MaxTime)
	}
	// It kept adding rounds until the budget (how many fit depends on how
	// loaded the machine is), then named the cell.
	if res.ExtraRounds < 1 || took < opts.MaxTime*3/4 || len(res.Imprecise) != 1 || res.Imprecise[0] != cs[0].Name() {
		t.Fatalf("%d rounds added in %v, imprecise %v: want rounds added until the %v budget and the cell named", res.ExtraRounds, took, res.Imprecise, opts.MaxTime)
	}
	// An easy precision stops long before its budget, which would hold
	// thousands of these rounds: a few when the machine is quiet, a dozen
	// when the test runs beside the other packages' (12 seen in CI).
	opts.Precision, opts.MaxTime = 0.99, time.Minute
	start = time.Now()
	res, err = harness.Run(context.Background(), cs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); len(res.Imprecise) != 0 || res.ExtraRounds > 50 || took > opts.MaxTime/6 {
		t.Fatalf("±99%%: %d rounds added in %v, imprecise %v: want it to stop early with none named", res.ExtraRounds, took, res.Imprecise)
	}
}

// TestProfilesPerCell writes a CPU and a mutex profile per cell, each a
// pprof file that parses, named by the cell, and none for the controls.
func TestProfilesPerCell(t *testing.T) {
	dir := t.TempDir()
	cs := cells(t, workloads.Issuer, map[string]string{"certs": "32"}, 2)[:1] // sorted: a mutex
	opts := options(1)
	opts.Profiles = harness.Profiles{CPU: dir, Mutex: dir, Write: func(path string, data []byte) error {
		return os.WriteFile(path, data, 0o644)
	}}
	if _, err := harness.Run(context.Background(), cs, opts); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Fatalf("profiles %v, want a cpu and a mutex profile of the one cell", files)
	}
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "issuer_impl-sorted_certs-32_hit-1_threads-2.") {
			t.Errorf("%s: not named by its cell", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := profile.Parse(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestDefaultRoundsGiveAnInterval: the default run's rounds give every
// cell's median a finite 95% interval, as benchstat computes it (five
// printed "± ∞ need >= 6 samples" for every cell).
func TestDefaultRoundsGiveAnInterval(t *testing.T) {
	v := make([]float64, harness.DefaultOptions.Rounds)
	for i := range v {
		v[i] = 100 + float64(i)
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(v, &benchmath.DefaultThresholds), 0.95)
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || len(s.Warnings) > 0 {
		t.Errorf("%d rounds: median %v [%v, %v] %v: no interval", len(v), s.Center, s.Lo, s.Hi, s.Warnings)
	}
}
