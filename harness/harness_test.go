package harness_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

func TestParseThreads(t *testing.T) {
	for in, want := range map[string][]int{
		"1":       {1},
		"1,2,4,8": {1, 2, 4, 8},
		"1-4":     {1, 2, 3, 4},
		"1-18/2":  {1, 3, 5, 7, 9, 11, 13, 15, 17, 18},
		"2,1-3":   {2, 1, 3},
	} {
		got, err := harness.ParseThreads(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseThreads(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "4-2", "1-4/0", "x", "2/2", "1,,2", "1-100000", "1025",
		"9223372036854775806-9223372036854775807", "1-99999999999999999999"} {
		if got, err := harness.ParseThreads(bad); err == nil {
			t.Errorf("ParseThreads(%q) = %v, want an error", bad, got)
		}
	}
}

func cells(t *testing.T, w workloads.Workload, set map[string]string, threads ...int) []harness.Cell {
	t.Helper()
	p, err := w.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	var out []harness.Cell
	for _, im := range impls.All() {
		for _, th := range threads {
			out = append(out, harness.Cell{Impl: im, Workload: w, Params: p, Threads: th})
		}
	}
	return out
}

// ofImpl keeps the cells of one implementation, in order.
func ofImpl(cs []harness.Cell, name string) []harness.Cell {
	var out []harness.Cell
	for _, c := range cs {
		if c.Impl.Name == name {
			out = append(out, c)
		}
	}
	return out
}

func options(rounds int) harness.Options {
	o := harness.DefaultOptions
	o.Rounds, o.Window, o.Warmup = rounds, 20*time.Millisecond, 5*time.Millisecond
	// Tests share the machine with other packages' tests: quarantine
	// would (rightly) set many rounds aside. Its own tests turn it on.
	o.Quarantine = harness.Quarantine{}
	o.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 8})
	}
	return o
}

func TestRunMeasuresEveryCellEveryRound(t *testing.T) {
	cs := cells(t, workloads.Issuer, map[string]string{"certs": "64"}, 1, 2)
	res, err := harness.Run(context.Background(), cs, options(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Incomplete || len(res.Controls) != 2 {
		t.Fatalf("incomplete %v, controls %v; want complete with a control for threads 1 and 2", res.Incomplete, res.Controls)
	}
	for _, c := range append(cs, res.Controls...) {
		ns := res.Values(c, records.NsPerOp)
		ops := res.Values(c, records.OpsPerSec)
		if len(ns) != 3 || len(ops) != 3 {
			t.Fatalf("%s: %d ns/op and %d ops/s values, want 3 each", c.Name(), len(ns), len(ops))
		}
		for i := range ns {
			if ns[i] <= 0 || ops[i] <= 0 {
				t.Fatalf("%s: round %d ns/op %v ops/s %v", c.Name(), i, ns[i], ops[i])
			}
			// ns/op is wall time over all operations, as go test -bench:
			// the inverse of aggregate throughput.
			if p := ns[i] * ops[i]; p < 0.999e9 || p > 1.001e9 {
				t.Errorf("%s: round %d: ns/op × ops/s = %.6g, want 1e9", c.Name(), i, p)
			}
		}
		// ns/call is the mean over workers of each one's time per call. A
		// worker's clock starts after it wakes at the barrier, the wall
		// clock before, so at one thread ns/call is at most ns/op, whatever
		// the load. At n threads it has no bound a loaded machine keeps (a
		// worker that waits for a CPU shortens its own clock);
		// TestNsPerCallIsTheWorkersMean pins its definition instead.
		call := res.Values(c, records.NsPerCall)
		if len(call) != 3 {
			t.Fatalf("%s: %d ns/call values", c.Name(), len(call))
		}
		for i := range call {
			if !(call[i] > 0) || c.Threads == 1 && call[i] > ns[i]*1.0001 {
				t.Errorf("%s: round %d: ns/call %.4g against ns/op %.4g", c.Name(), i, call[i], ns[i])
			}
		}
		if allocs := res.Values(c, records.AllocsPerOp); allocs[len(allocs)-1] > 0.01 {
			t.Errorf("%s: %.3f allocs/op on warm lookups", c.Name(), allocs[len(allocs)-1])
		}
	}
	if got := cs[0].Name(); got != "Issuer/impl=sorted/certs=64/hit=1/threads=1" {
		t.Errorf("cell name %q", got)
	}
	// The records come in the cells' planned order, then rounds, whatever
	// order the rounds measured them in.
	set := res.Set()
	if len(set.Records) != len(res.Samples) {
		t.Fatalf("%d records for %d samples", len(set.Records), len(res.Samples))
	}
	planned := append(cs, res.Controls...)
	for i, r := range set.Records {
		if got, want := string(r.Name.Full()), planned[i/3].Name(); got != want {
			t.Fatalf("record %d is %s, want %s", i, got, want)
		}
	}
	for _, key := range []string{"cpu", "cores", "rounds", "window", "warmup", "perfrun"} {
		if set.Config(key) == "" {
			t.Errorf("no %s: configuration line", key)
		}
	}
	// Rounds are shuffled: some round differs from the first in order.
	first := func(round int) []string {
		var names []string
		for _, s := range res.Samples {
			if s.Round == round {
				names = append(names, s.Cell.Name())
			}
		}
		return names
	}
	if slices.Equal(first(0), first(1)) && slices.Equal(first(1), first(2)) {
		t.Error("every round ran the cells in the same order")
	}
}

func TestRunReportsDerivedAndPacedMetrics(t *testing.T) {
	cs := cells(t, workloads.Load, map[string]string{"n": "512"}, 1)[:1]
	cs = append(cs, cells(t, workloads.Mixed, map[string]string{"certs": "32", "rate": "500"}, 1)[3])
	res, err := harness.Run(context.Background(), cs, options(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		cell harness.Cell
		unit string
	}{{cs[0], "ns/add"}, {cs[0], "B/object"}, {cs[1], "writer-ns/op"}, {cs[1], "writer-ops/s"}} {
		if v := res.Values(want.cell, want.unit); len(v) != 1 || v[0] <= 0 {
			t.Errorf("%s: %s = %v, want one positive value", want.cell.Name(), want.unit, v)
		}
	}
}

func TestRunInterruptedKeepsCompletedRounds(t *testing.T) {
	cs := cells(t, workloads.Empty, nil, 1)
	perRound := len(cs) + 1 // and the one-thread control
	ctx, cancel := context.WithCancel(context.Background())
	opts := options(50)
	opts.Progress = func(p harness.Progress) {
		if p.Round == 3 && p.Done == 2*perRound+1 {
			cancel()
		}
	}
	res, err := harness.Run(ctx, cs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Incomplete || len(res.Samples) != 2*perRound {
		t.Fatalf("incomplete %v with %d samples; want the 2 completed rounds (%d samples)", res.Incomplete, len(res.Samples), 2*perRound)
	}
}

// TestRunInterruptInsideWindow: a cancel during an hour-long window stops
// the run within a second, keeping the completed rounds only.
func TestRunInterruptInsideWindow(t *testing.T) {
	cs := cells(t, workloads.Empty, nil, 1)[:1]
	opts := options(3)
	opts.Window = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := harness.Run(ctx, cs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second { // generous for -race; the old code waited out the hour
		t.Fatalf("the run stopped %v after the start, want within a second of the cancel", took)
	}
	if !res.Incomplete || len(res.Samples) != 0 {
		t.Fatalf("incomplete %v, %d samples: an interrupted window is not a sample", res.Incomplete, len(res.Samples))
	}
}

func TestRunWrongAnswerNamesTheCell(t *testing.T) {
	bad := workloads.Workload{Name: "bad", Title: "Bad", Setup: func(workloads.Env) (*workloads.Instance, error) {
		return &workloads.Instance{Worker: func(int) workloads.Op {
			return func(int) error { return errBad }
		}}, nil
	}}
	cs := cells(t, bad, nil, 2)[:1]
	_, err := harness.Run(context.Background(), cs, options(1))
	if err == nil || !strings.Contains(err.Error(), "cell Bad/impl=sorted/threads=2") {
		t.Fatalf("err = %v, want it to name the cell", err)
	}
}

var errBad = errorString("wrong answer")

type errorString string

func (e errorString) Error() string { return string(e) }

func TestSummarize(t *testing.T) {
	s := records.Summarize([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if s.N != 10 || s.Mean != 5.5 || s.Median != 5.5 {
		t.Fatalf("Summarize = %+v", s)
	}
	if d := s.Variance - 55.0/6; d > 1e-9 || d < -1e-9 {
		t.Errorf("sample variance %v, want %v", s.Variance, 55.0/6)
	}
	if !(s.Lo < s.Median && s.Median < s.Hi) {
		t.Errorf("median CI [%v, %v] does not surround %v", s.Lo, s.Hi, s.Median)
	}
}

// TestRevisionNotFromWorkingDirectory: a binary without a VCS stamp (a
// test binary has none) names no revision, rather than the HEAD of the git
// repository it happens to run in.
func TestRevisionNotFromWorkingDirectory(t *testing.T) {
	if harness.Stamp != "" {
		t.Skip("stamped at link time")
	}
	if got := harness.Revision(); got != "unknown" {
		t.Errorf("Revision() = %q in an unstamped binary, want unknown", got)
	}
}
