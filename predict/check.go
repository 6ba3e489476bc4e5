package predict

import (
	"fmt"
	"math"
)

// Check refuses a cell's counts that no operation can have: negative or
// not finite, more instructions held under a lock than executed, more
// held or taken by the busiest lock than by all, or no instructions. One
// check every prediction passes through (Results, and package scaling's),
// before anything is predicted from a profile.
func Check(c Cell) error {
	for _, v := range []float64{c.Instructions, c.ExclusiveLocks, c.LockedInstructions, c.Atomics, c.BusiestLocks, c.BusiestLocked} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("profile of %s has a count that is negative or not a number", c.Name)
		}
	}
	switch {
	case !(c.Instructions > 0):
		return fmt.Errorf("profile of %s has no instructions/op", c.Name)
	case c.LockedInstructions > c.Instructions:
		return fmt.Errorf("profile of %s holds a lock for %.4g instructions of the %.4g it executes", c.Name, c.LockedInstructions, c.Instructions)
	case c.BusiestLocks > c.ExclusiveLocks || c.BusiestLocked > c.LockedInstructions:
		return fmt.Errorf("profile of %s gives its busiest lock more than all its locks", c.Name)
	case c.PerCall < 0 || math.IsInf(c.PerCall, 0) || math.IsNaN(c.PerCall):
		return fmt.Errorf("%s has a time per call that cannot be", c.Name)
	}
	return nil
}
