package abcount

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// LockVerdicts judges each cell's lock profiles (base's, head's), unit by
// unit, in the order of names, at the time threshold.
func LockVerdicts(th compare.Thresholds, names []string, profiles Profiles) []compare.CellVerdict {
	return verdicts(th, names, profiles, func(th compare.Thresholds, name string, p [2]locks.Profile) []compare.CellVerdict {
		var out []compare.CellVerdict
		before, after := p[0].Values(), p[1].Values()
		for i, unit := range locks.Units {
			v := compare.LockVerdict(name, unit, before[i], after[i], th)
			if which := lockKinds(p, unit); which != "" && v.Verdict != compare.Pass && v.Verdict != compare.NotGated {
				v.Reason += " (" + which + ")"
			}
			out = append(out, v)
		}
		return out
	})
}

// lockKinds names the locks a unit of the profiles speaks of, base's and
// head's: the kinds taken exclusively for the exclusive units, shared for
// the shared ones, every lock for atomics, unless the atomics besides the
// locks' own moved: those come from sync/atomic or the runtime, and are
// said as such.
func lockKinds(p [2]locks.Profile, unit string) string {
	if unit == records.Atomics {
		b, okb := besidesLocks(p[0])
		h, okh := besidesLocks(p[1])
		if okb && okh && math.Abs(h-b) > 0.005*max(b, h, 1) {
			return fmt.Sprintf("besides the locks' own: %.4g -> %.4g per op, from sync/atomic or the runtime", b, h)
		}
	}
	var kinds []string
	for _, side := range p {
		for _, l := range side.Locks {
			var took bool
			switch unit {
			case records.ExclusiveLocks, records.LockedInstructions:
				took = l.Exclusive > 0
			case records.SharedLocks, records.SharedLockedInstructions:
				took = l.Shared > 0
			default:
				took = true
			}
			// A replayed profile knows its busiest lock, not its kind.
			if took && l.Kind != locks.RecordedKind && !slices.Contains(kinds, l.Kind) {
				kinds = append(kinds, l.Kind)
			}
		}
	}
	return strings.Join(kinds, ", ")
}

// besidesLocks are a profile's atomics besides its locks' own: two an
// acquisition and its release (a sync.Mutex's, a sync.RWMutex's shared
// one), four a sync.RWMutex's exclusive one (its writer mutex and its
// reader count). false where a lock of another kind (a C library's) has
// atomics of its own nobody counted, or the profile names no lock.
func besidesLocks(p locks.Profile) (float64, bool) {
	own := 0.0
	for _, l := range p.Locks {
		switch l.Kind {
		case "sync.Mutex":
			own += 2 * l.Exclusive
		case "sync.RWMutex":
			own += 4*l.Exclusive + 2*l.Shared
		default:
			return 0, false
		}
	}
	if len(p.Locks) == 0 && p.ExclusiveLocks+p.SharedLocks > 0 {
		return 0, false
	}
	return max(0, p.Atomics-own), true
}

// profileUnits are the units a lock profiles file holds for each cell and
// arm, in order (predict.ProfileUnits).
var profileUnits = func() []string {
	var out []string
	for _, u := range predict.ProfileUnits {
		out = append(out, u.Unit)
	}
	return out
}()
