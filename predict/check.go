package predict

import (
	"fmt"
	"math"
)

// Check refuses a cell's counts that no operation can have: negative or
// not finite, more instructions held under a lock than executed, more
// held or taken by the busiest lock than by all, or no instructions. One
// check every prediction passes through (Results, and Change's),
// before anything is predicted from a profile.
func Check(c Cell) error {
	for _, v := range []float64{c.Instructions, c.ExclusiveLocks, c.LockedInstructions, c.Atomics, c.BusiestLocks, c.BusiestLocked, c.HottestLine, c.OtherLines, c.OtherLineTransfers, c.OtherLocks, c.Unseen, c.OtherSpinning, c.Reads, c.ReadLineWrites, c.Writers, c.WriterReads} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("profile of %s has a count that is negative or not a number", c.Name)
		}
	}
	if err := CheckLocks(c.Name, LockCounts{Exclusive: c.ExclusiveLocks, Held: c.LockedInstructions, Atomics: c.Atomics}); err != nil {
		return err
	}
	switch {
	case !(c.Instructions > 0):
		return fmt.Errorf("profile of %s has no instructions/op", c.Name)
	case c.LockedInstructions > c.Instructions:
		return fmt.Errorf("profile of %s holds a lock for %.4g instructions of the %.4g it executes", c.Name, c.LockedInstructions, c.Instructions)
	case c.BusiestLocks > c.ExclusiveLocks || c.BusiestLocked > c.LockedInstructions:
		return fmt.Errorf("profile of %s gives its busiest lock more than all its locks", c.Name)
	case c.BusiestSpins != 0 && c.BusiestSpins != 1:
		return fmt.Errorf("profile of %s says its busiest lock's waiters spin %g: 0 or 1", c.Name, c.BusiestSpins)
	case c.OtherSpinning > c.ExclusiveLocks-c.BusiestLocks+1e-9:
		return fmt.Errorf("profile of %s has more spinning acquisitions besides the busiest than acquisitions", c.Name)
	case c.Unseen > c.Atomics:
		return fmt.Errorf("profile of %s has more atomics in locks it cannot see than in all", c.Name)
	case c.PerCall < 0 || math.IsInf(c.PerCall, 0) || math.IsNaN(c.PerCall):
		return fmt.Errorf("%s has a time per call that cannot be", c.Name)
	}
	return nil
}

// LockCounts are what a lock profile says of one operation: exclusive and
// shared acquisitions, the instructions held under each, and the atomic
// read-modify-writes.
type LockCounts struct {
	Exclusive, Shared, Held, SharedHeld, Atomics float64
}

// CheckLocks refuses a lock profile no operation can have: a count that
// is negative or not finite, instructions held under a kind of lock the
// operation never takes, or fewer atomics than acquisitions (taking any
// lock is an atomic read-modify-write). The one check of a profile's
// possibility: predict's, ab's counts and -replay's files all pass it.
func CheckLocks(name string, l LockCounts) error {
	for _, v := range []float64{l.Exclusive, l.Shared, l.Held, l.SharedHeld, l.Atomics} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("lock profile of %s has a count that is negative or not a number", name)
		}
	}
	switch {
	case l.Held > 0 && l.Exclusive == 0:
		return fmt.Errorf("lock profile of %s holds an exclusive lock for %.4g instructions and takes none", name, l.Held)
	case l.SharedHeld > 0 && l.Shared == 0:
		return fmt.Errorf("lock profile of %s holds a shared lock for %.4g instructions and takes none", name, l.SharedHeld)
	case l.Atomics < l.Exclusive+l.Shared:
		return fmt.Errorf("lock profile of %s takes %.4g locks with %.4g atomics: each acquisition is one at least", name, l.Exclusive+l.Shared, l.Atomics)
	}
	return nil
}
