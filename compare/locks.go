package compare

import (
	"fmt"
	"math"

	"github.com/perfrun/perfrun/records"
)

// lockWords name each unit of a lock profile in a verdict's reason.
var lockWords = map[string]string{
	records.ExclusiveLocks:           "exclusive locks",
	records.SharedLocks:              "shared locks",
	records.LockedInstructions:       "instructions under an exclusive lock",
	records.SharedLockedInstructions: "instructions under a shared lock",
	records.Atomics:                  "atomic read-modify-writes",
}

// gatedLocks are the units of a lock profile a gate fails on: what
// serialises threads (an exclusive lock, and how long it is held) and what
// makes cores fight over a cache line (an atomic write). Shared locks and
// what runs under them serialise nothing themselves; their atomics are
// counted in atomics/op.
var gatedLocks = map[string]bool{records.ExclusiveLocks: true, records.LockedInstructions: true, records.Atomics: true}

// MinLockChange is the least change a lock profile's count of atomics
// must make per operation to be one: the runtime's own atomics (a
// collection, a timer) land on a few of the operations counted, in one
// process and not the next, in identical code (results/locks/campaigns
// has their counts). A change in instructions held must be one
// instruction an op. A change in acquisitions is one however small
// (leastChange): the runtime takes none of the locks a profile counts,
// and the one lock the collector's pace takes (sync.Pool's registry's)
// the profile leaves out, so a lock on one call in 250 is seen.
const MinLockChange = 0.01

// leastChange is the least change of unit per operation that is one.
func leastChange(unit string) float64 {
	switch unit {
	case records.ExclusiveLocks, records.SharedLocks:
		return 0
	case records.LockedInstructions, records.SharedLockedInstructions:
		return 1
	}
	return MinLockChange
}

// LockVerdict compares one unit of a cell's lock profile, an exact count
// per operation, at th.InstructionsRatio: more than that fraction more is
// a REGRESSION, so much less an IMPROVED, and any count where base had none
// a REGRESSION whatever the threshold, once the change passes
// MinLockChange. Shared locks and the instructions under them are
// reported, never gated.
func LockVerdict(name, unit string, old, new float64, th Thresholds) CellVerdict {
	c := CellVerdict{Name: name, Unit: unit, Verdict: Pass, Ratio: ratio(new, old)}
	words := lockWords[unit]
	change := fmt.Sprintf("%s %.4g -> %.4g per op", words, old, new)
	if old > 0 {
		change += fmt.Sprintf(" (%+.1f%%)", 100*(new/old-1))
	}
	if c.Ratio == 1 {
		c.Reason = fmt.Sprintf("%s %.4g per op, unchanged", words, old)
	}
	least := leastChange(unit)
	if math.Abs(new-old) < least && new != old && gatedLocks[unit] {
		// Too small to be the code's: no change.
		c.Reason = change + fmt.Sprintf(", less than %g an op: no change", least)
		new = old
	}
	up, down := new > old*(1+th.InstructionsRatio), new < old*(1-th.InstructionsRatio)
	switch {
	case !gatedLocks[unit]:
		c.Verdict = NotGated
		if c.Reason == "" {
			c.Reason = change
		}
		c.Reason += "; not gated (a shared lock serialises no reader)"
	case old == 0 && new > 0 && unit == records.ExclusiveLocks:
		c.Verdict, c.Reason = Regression, fmt.Sprintf("operations take an exclusive lock: 0 -> %.4g per op", new)
	case old == 0 && new > 0 && unit == records.Atomics:
		c.Verdict, c.Reason = Regression, fmt.Sprintf("operations write a shared cache line: atomic read-modify-writes 0 -> %.4g per op", new)
	case old == 0 && new > 0:
		c.Verdict, c.Reason = Regression, change
	case up:
		c.Verdict, c.Reason = Regression, change+fmt.Sprintf(", past the limit of %+.1f%%", 100*th.InstructionsRatio)
	case down:
		c.Verdict, c.Reason = Improved, change
	case c.Reason == "":
		c.Reason = change + ", within the limit"
	}
	if c.Ratio > 1e300 {
		c.Ratio = 0 // JSON has no infinity: the reason says 0 -> n
	}
	return c
}
