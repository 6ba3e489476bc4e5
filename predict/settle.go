package predict

import (
	"math"

	"github.com/perfrun/perfrun/compare"
)

// settle is head with each count of its lock profile that moved from
// base's by less than the exact counts' gate calls a change
// (compare.MinLockChange an operation for an atomic; one instruction for
// instructions held, where the acquisitions are the same; any change of
// acquisitions is one) put back to base's. The runtime's own atomics land
// on a few operations in one process and none in the next; a prediction
// that weighed them would see a change in identical code, and within the
// cores, where its band is wide, could decide nothing.
func settle(base, head Cell) Cell {
	// The atomics settle by those beside the exclusive locks' own two an
	// acquisition, which stay with the acquisitions.
	if math.Abs(head.SharedAtomics()-base.SharedAtomics()) < compare.MinLockChange {
		head.Atomics = base.Atomics + 2*(head.ExclusiveLocks-base.ExclusiveLocks)
	}
	events := []func(*Cell) *float64{
		func(c *Cell) *float64 { return &c.HottestLine },
		func(c *Cell) *float64 { return &c.OtherLineTransfers },
		func(c *Cell) *float64 { return &c.Unseen },
	}
	held := []func(*Cell) *float64{
		func(c *Cell) *float64 { return &c.LockedInstructions },
		func(c *Cell) *float64 { return &c.BusiestLocked },
	}
	near := func(fields []func(*Cell) *float64, least float64) {
		for _, field := range fields {
			if b, h := field(&base), field(&head); math.Abs(*h-*b) < least {
				*h = *b
			}
		}
	}
	near(events, compare.MinLockChange)
	// The instructions held belong to the acquisitions: settled only where
	// those are the same.
	if head.ExclusiveLocks == base.ExclusiveLocks && head.BusiestLocks == base.BusiestLocks {
		near(held, 1)
	}
	return head
}
