package compare

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestLockVerdict: each contention a change can add fails its cell at the
// default threshold, with the reason in words; the reverse improves; the
// same profile passes; shared locks are reported, never gated.
func TestLockVerdict(t *testing.T) {
	th := DefaultThresholds
	th.InstructionsRatio = th.MinEffect // as ab judges them
	for _, c := range []struct {
		unit     string
		old, new float64
		want     Verdict
		reason   string
	}{
		{records.ExclusiveLocks, 0, 1, Regression, "operations take an exclusive lock: 0 -> 1 per op"},
		{records.LockedInstructions, 1796, 2530, Regression, "instructions under an exclusive lock 1796 -> 2530 per op (+40.9%)"},
		{records.Atomics, 0, 1, Regression, "operations write a shared cache line"},
		{records.Atomics, 2, 3, Regression, "atomic read-modify-writes 2 -> 3 per op (+50.0%)"},
		{records.ExclusiveLocks, 1.275, 1, Improved, "exclusive locks 1.275 -> 1 per op"},
		{records.LockedInstructions, 1796, 1796, Pass, "unchanged"},
		{records.LockedInstructions, 1796, 1800, Pass, "within the limit"},
		{records.SharedLocks, 0, 1, NotGated, "not gated"},
		{records.SharedLockedInstructions, 50, 900, NotGated, "not gated"},
	} {
		v := LockVerdict("Issuer/impl=x/threads=1", c.unit, c.old, c.new, th)
		if v.Verdict != c.want || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s %g -> %g: %s %q, want %s with %q", c.unit, c.old, c.new, v.Verdict, v.Reason, c.want, c.reason)
		}
	}
}

// TestLockVerdictFailsReport: one lock REGRESSION beside a time PASS fails
// the whole report; lock verdicts alone never count as judging time.
func TestLockVerdictFailsReport(t *testing.T) {
	rep := &Report{Cells: []CellVerdict{{Name: "c", Unit: "sec/op", Verdict: Pass}}}
	rep.finish()
	rep.Add(LockVerdict("c", records.ExclusiveLocks, 0, 1, DefaultThresholds))
	if rep.Verdict != Regression {
		t.Fatalf("time PASS and a lock REGRESSION: %s, want REGRESSION", rep.Verdict)
	}
	only := &Report{}
	only.Add(LockVerdict("c", records.Atomics, 2, 2, DefaultThresholds))
	if only.Verdict != Inconclusive {
		t.Fatalf("a lock PASS alone: %s, want INCONCLUSIVE (nothing judged time)", only.Verdict)
	}
}

// TestLockCountsHaveAFloor: the runtime's own atomics land on a few of the
// operations counted, 0.0001163 an op in one process and none in the next
// (identical rcu code came out IMPROVED by atomics/op, -100%); a change
// under MinLockChange an op is no change either way, and one past it still
// fails.
func TestLockCountsHaveAFloor(t *testing.T) {
	for _, c := range []struct {
		old, new float64
		want     Verdict
	}{{0.0001163, 0, Pass}, {0, 0.0001163, Pass}, {2, 2.004, Pass}, {0, 1, Regression}, {0, 0.05, Regression}, {1, 0, Improved}} {
		if v := LockVerdict("Issuer/impl=rcu/threads=1", records.Atomics, c.old, c.new, DefaultThresholds); v.Verdict != c.want {
			t.Errorf("atomics %g -> %g: %s (%s), want %s", c.old, c.new, v.Verdict, v.Reason, c.want)
		}
	}
}

// TestARareLockIsAChange: acquisitions have no floor: the runtime takes
// none of the locks a profile counts and the collector's the profile
// leaves out, so a lock taken on one call in 250 (0.004 an op) where
// there was none is a REGRESSION, and so is one more acquisition in 250;
// atomics that few are still no change.
func TestARareLockIsAChange(t *testing.T) {
	for _, c := range []struct {
		unit     string
		old, new float64
		want     Verdict
	}{
		{records.ExclusiveLocks, 0, 0.004, Regression},
		{records.ExclusiveLocks, 1, 1.004, Pass}, // within the 1% limit
		{records.ExclusiveLocks, 0.004, 0.008, Regression},
		{records.ExclusiveLocks, 0.004, 0, Improved},
		{records.Atomics, 0, 0.008, Pass},
	} {
		if v := LockVerdict("Issuer/impl=rcu/threads=1", c.unit, c.old, c.new, DefaultThresholds); v.Verdict != c.want {
			t.Errorf("%s %g -> %g: %s (%s), want %s", c.unit, c.old, c.new, v.Verdict, v.Reason, c.want)
		}
	}
}
