package predict_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/predict"
)

// The designs' 1-thread profiles at cost=openssl on 1024 CAs, as perfrun
// run -threads 1 -instructions -locks counted them
// (results/published/predicted/models.txt).
var (
	sorted = predict.Cell{Name: "sorted", Instructions: 5226.8, ExclusiveLocks: 1.2754, LockedInstructions: 1795.9,
		Atomics: 2.5508, BusiestLocks: 1.2754, BusiestLocked: 1795.9}
	hashmap = predict.Cell{Name: "hashmap", Instructions: 3418.0, Atomics: 2}
	rcu     = predict.Cell{Name: "rcu", Instructions: 3300}
)

func predictAt(t *testing.T, base, head predict.Cell) (predict.Prediction, compare.CellVerdict) {
	t.Helper()
	p, err := predict.Change(base.Name, base, head, predict.Threads(predict.DefaultThreads), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	return p, p.Verdict(compare.DefaultThresholds)
}

func TestIdenticalProfilesPredictExactlyOne(t *testing.T) {
	for _, c := range []predict.Cell{sorted, hashmap, rcu} {
		p, v := predictAt(t, c, c)
		if p.Ratio != 1 || p.Lo != 1 || p.Hi != 1 || v.Verdict != compare.Pass {
			t.Errorf("%s against itself: ratio %v [%v, %v], %s; want exactly 1, PASS", c.Name, p.Ratio, p.Lo, p.Hi, v.Verdict)
		}
		if !strings.Contains(v.Reason, "unchanged") {
			t.Errorf("%s: reason %q does not say unchanged", c.Name, v.Reason)
		}
	}
}

// TestTheRuntimesStrayAtomicsAreNoChange: identical code whose head
// counted a few more of the runtime's own atomics (2 -> 2.002 an op, as
// a collection or a timer leaves in one process of ab's, beside two busy
// loops) and half an instruction more held predicts exactly no change,
// within the cores too, where the held band would otherwise span the
// threshold and leave identical code undecided; a change as large as the
// counts' gate calls one still moves it.
func TestTheRuntimesStrayAtomicsAreNoChange(t *testing.T) {
	for _, c := range []predict.Cell{sorted, hashmap} {
		head := c
		head.Atomics += 0.002
		head.LockedInstructions += 0.5 * math.Min(1, c.LockedInstructions)
		p, err := predict.Change(c.Name, c, head, predict.Threads(predict.DefaultThreads), predict.Fixed)
		if err == nil {
			err = p.Within(2, predict.RunnerFixed)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, predict.DefaultThreads} {
			if v, _ := p.VerdictAt(compare.DefaultThresholds, n); v.Verdict != compare.Pass || v.Ratio != 1 {
				t.Errorf("%s, stray atomics, at %d threads: %s, ratio %v; want PASS, exactly 1", c.Name, n, v.Verdict, v.Ratio)
			}
		}
		head.Atomics = c.Atomics + 0.02
		p, err = predict.Change(c.Name, c, head, predict.Threads(predict.DefaultThreads), predict.Fixed)
		if err != nil {
			t.Fatal(err)
		}
		if p.Ratio == 1 {
			t.Errorf("%s: 0.02 atomics an op more predicts no change; the counts' gate calls it one", c.Name)
		}
	}
}

// A change that makes every hashmap lookup take the write lock: 0 -> 1
// exclusive lock, its reader count's atomics besides, 50 instructions
// held. Time at 2 threads sees it slower; at 16 threads it is a queue.
func TestAnExclusiveLockIsARegressionAtSixteenThreads(t *testing.T) {
	head := hashmap
	head.ExclusiveLocks, head.LockedInstructions, head.Atomics = 1, 50, 4
	head.BusiestLocks, head.BusiestLocked = 1, 50
	p, v := predictAt(t, hashmap, head)
	if v.Verdict != compare.Regression || v.Unit != predict.Unit(16) {
		t.Fatalf("write lock: %s on %s, want REGRESSION on %s: %s", v.Verdict, v.Unit, predict.Unit(16), v.Reason)
	}
	if !strings.HasPrefix(v.Reason, "at 16 threads +") || !strings.Contains(v.Reason, "calls take an exclusive lock, 0 -> 1 per op") {
		t.Errorf("reason %q does not give the cost at 16 threads and the lock", v.Reason)
	}
	if !strings.HasPrefix(p.Causes[0].What, "calls take an exclusive lock, 0 -> 1 per op") {
		t.Errorf("the lock is not the first cause: %+v", p.Causes)
	}
	t.Logf("%s", v.Reason)
}

func TestASharedCounterIsARegression(t *testing.T) {
	head := rcu
	head.Atomics = 1
	_, v := predictAt(t, rcu, head)
	if v.Verdict != compare.Regression || !strings.Contains(v.Reason, "calls write a shared cache line") {
		t.Fatalf("a shared counter: %s: %s", v.Verdict, v.Reason)
	}
	t.Logf("%s", v.Reason)
}

// sorted checking its first candidate before it lets go of its lock: one
// acquisition a call instead of 1.275, each held longer. Neither unit
// alone decides; the predicted time does, and the reason names both.
func TestATradeOffIsDecidedByThePredictedTime(t *testing.T) {
	head := sorted
	head.ExclusiveLocks, head.BusiestLocks, head.Atomics = 1, 1, 2
	head.LockedInstructions, head.BusiestLocked = 2064, 2064
	p, v := predictAt(t, sorted, head)
	if len(p.Causes) != 2 || !strings.Contains(v.Reason, "decided by the predicted time") {
		t.Fatalf("trade-off: %s %s", v.Verdict, v.Reason)
	}
	var alone float64 = 1
	for _, c := range p.Causes {
		alone *= c.Alone
	}
	if math.Abs(math.Log(alone/p.Ratio)) > 0.05 {
		t.Errorf("the causes alone multiply to %.3f, the prediction says %.3f", alone, p.Ratio)
	}
	t.Logf("%s: %s", v.Verdict, v.Reason)
}

// A tenth of lookups doing their work twice, outside any lock: where
// nothing is shared the change costs at 16 threads what it costs at one;
// where a lock or a line is the bottleneck at 16 (sorted's lock, hashmap's
// reader count), a call waits there anyway and hides part or all of it,
// never more than the whole.
func TestWorkOutsideALockAtSixteen(t *testing.T) {
	for _, c := range []struct {
		base   predict.Cell
		lo, hi float64
	}{{rcu, 1.0999, 1.1001}, {hashmap, 0.995, 1.10}, {sorted, 0.995, 1.10}} {
		head := c.base
		head.Instructions *= 1.10
		p, v := predictAt(t, c.base, head)
		if p.Ratio < c.lo || p.Ratio > c.hi || !strings.Contains(v.Reason, "instructions 3") && !strings.Contains(v.Reason, "instructions 5") {
			t.Errorf("%s: +10%% instructions outside any lock predicts %.4f at 16 threads, want [%.4f, %.4f]: %s", c.base.Name, p.Ratio, c.lo, c.hi, v.Reason)
		}
		t.Logf("%s: %s %s", c.base.Name, v.Verdict, v.Reason)
	}
}

func TestImpossibleProfilesAreRefused(t *testing.T) {
	for _, bad := range []predict.Cell{
		{Name: "held", Instructions: 688, ExclusiveLocks: 1, LockedInstructions: 20005, Atomics: 2},
		{Name: "negative", Instructions: 688, ExclusiveLocks: -1, Atomics: 2},
		{Name: "nan", Instructions: math.NaN()},
		{Name: "none"},
		{Name: "busiest", Instructions: 688, ExclusiveLocks: 1, LockedInstructions: 10, BusiestLocks: 2, BusiestLocked: 10, Atomics: 2},
	} {
		if _, err := predict.Change("c", hashmap, bad, predict.Threads(16), predict.Fixed); err == nil {
			t.Errorf("%s: predicted from an impossible profile", bad.Name)
		}
	}
	if _, err := predict.Change("c", hashmap, hashmap, predict.Threads(16), predict.Reference); err == nil {
		t.Error("predicted with constants that give no time per instruction")
	}
}

// TestNoMeasuredTimeEnters: the prediction is the counts' and the fixed
// constants' alone, so cells that differ only in a measured time per call
// (a busy host's) predict the same ratio to the last digit.
func TestNoMeasuredTimeEnters(t *testing.T) {
	head := hashmap
	head.ExclusiveLocks, head.LockedInstructions, head.Atomics = 1, 50, 4
	quiet, busy := hashmap, hashmap
	quiet.PerCall, busy.PerCall = 470e-9, 1900e-9
	a, err := predict.Change("c", quiet, head, predict.Threads(16), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := predict.Change("c", busy, head, predict.Threads(16), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	if a.Ratio != b.Ratio || a.Lo != b.Lo || a.Hi != b.Hi {
		t.Errorf("a measured time moved the prediction: %v [%v, %v] against %v [%v, %v]", a.Ratio, a.Lo, a.Hi, b.Ratio, b.Lo, b.Hi)
	}
}

// TestAFileNeverStretchesTheRunnersConstants: counts from a file that
// claims 8 cores are predicted at 8 threads with the reference constants,
// exactly as counts from any machine are past the runner's 2 cores; the
// runner's own constants (Runner.MeasuredOn) speak for 1 and 2 threads
// alone. They once predicted up to whatever cores the file said.
func TestAFileNeverStretchesTheRunnersConstants(t *testing.T) {
	head := hashmap
	head.ExclusiveLocks, head.LockedInstructions, head.Kinds = 1, 58, true // a profile that knows its kinds of lock
	ref, err := predict.Change(hashmap.Name, hashmap, head, predict.Threads(8), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := predict.Change(hashmap.Name, hashmap, head, predict.Threads(8), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	if err := claimed.Within(8, predict.RunnerFixed); err != nil {
		t.Fatal(err)
	}
	r8, _, _, _ := ref.RatioAt(8)
	c8, _, _, _ := claimed.RatioAt(8)
	r2, _, _, _ := ref.RatioAt(2)
	c2, _, _, _ := claimed.RatioAt(2)
	if c8 != r8 || c2 == r2 {
		t.Errorf("a file claiming 8 cores: at 8 threads %v (reference %v), at 2 threads %v (reference %v); want the reference at 8 and the runner's at 2", c8, r8, c2, r2)
	}
}

// TestARareLockMovesThePrediction: a lock-free lookup that takes a Mutex
// on one call in 250, held 400 instructions, is predicted slower at 16
// threads, not settled back to unchanged as the runtime's stray atomics
// are.
func TestARareLockMovesThePrediction(t *testing.T) {
	free := predict.Cell{Name: "rcu", Instructions: 400}
	rare := free
	rare.ExclusiveLocks, rare.LockedInstructions, rare.Atomics = 1.0/250, 400.0/250, 2.0/250
	rare.BusiestLocks, rare.BusiestLocked, rare.BusiestSpins, rare.Kinds = rare.ExclusiveLocks, rare.LockedInstructions, 1, true
	p, err := predict.Change("rcu", free, rare, predict.Threads(16), predict.Fixed)
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _, _ := p.RatioAt(16); !(r > 1) {
		t.Errorf("a lock on one call in 250: head ÷ base %g at 16 threads, want it slower", r)
	}
}
