package abcount

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/records"
)

// Profiles are each cell's lock profiles, by name: base's and head's.
type Profiles map[string][2]locks.Profile

// Locks counts the lock profile of every cell in base's and head's builds
// for lock profiles, on the same corpus (seed) and operations as the
// instruction counts, telling progress of each cell as it starts: one
// process a side, since a profile is exact, both at once (nothing is
// timed while they run).
func Locks(ctx context.Context, progress func(Cell), base, head Arm, cells []Cell, seed uint64) (Profiles, error) {
	out := make(Profiles)
	for _, c := range cells {
		argv := append(slices.Clone(c.Args), "-ops", strconv.Itoa(c.Ops), "-seed", strconv.FormatUint(seed, 10), "-locks")
		progress(c)
		var p [2]locks.Profile
		var errs [2]error
		var wg sync.WaitGroup
		for side, arm := range []Arm{base, head} {
			wg.Go(func() {
				p[side], errs[side] = locks.Count(ctx, append([]string{arm.Bin, "cell-ops"}, argv...), arm.Env)
			})
		}
		wg.Wait()
		for side, err := range errs {
			if err == nil {
				err = p[side].Check(c.Name)
			}
			if err != nil {
				return nil, fmt.Errorf("%s's lock profile of %s: %w", []string{"base", "head"}[side], c.Name, err)
			}
		}
		out[c.Name] = p
	}
	return out, nil
}

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
			if took && l.Kind != busiestKind && !slices.Contains(kinds, l.Kind) {
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

// busiestKind names the one lock a recorded profile describes: the file
// keeps its busiest lock's counts, not its kind.
const busiestKind = "busiest"

// profileUnits are the units a lock profiles file holds for each cell and
// arm: the profile's, then its busiest lock's, which the prediction past
// the cores reads.
var profileUnits = append(slices.Clone(locks.Units), records.BusiestLockUnits...)

// A unitCount is one row of a lock profiles file: a unit of a profile
// (profileUnits) and its value.
type unitCount struct {
	unit  int
	value float64
}

// locksFile is the file of every lock profile: a row a unit, each cell
// once, what ab -report writes beside windows.csv and -replay judges
// again.
var locksFile = countFile[unitCount]{
	what: "a lock profiles file", count: "a lock count", columns: []string{"unit", "value"},
	format: func(u unitCount) []string { return []string{profileUnits[u.unit], countText(u.value)} },
	parse: func(columns []string) (unitCount, bool) {
		unit := slices.Index(profileUnits, columns[0])
		v, ok := parseCounts(columns[1:], 0)
		if !ok || unit < 0 {
			return unitCount{}, false
		}
		return unitCount{unit, v[0]}, true
	},
}

// WriteLocks is every lock profile of a comparison, one row a unit, each
// cell once.
func WriteLocks(names []string, profiles Profiles) []byte {
	rows := make(map[string][2][]unitCount, len(profiles))
	for name, p := range profiles {
		var r [2][]unitCount
		for side := range 2 {
			acq, held := p[side].Busiest()
			for i, v := range append(p[side].Values(), acq, held) {
				r[side] = append(r[side], unitCount{i, v})
			}
		}
		rows[name] = r
	}
	return locksFile.write(names, rows)
}

// ReadLocks reads a lock profiles file as untrusted input, failing closed:
// every cell must have both arms, each with every unit of a profile
// exactly once; a row that is not a count, a unit twice, or a profile cut
// short refuses the file rather than judge a cell on counts it lacks.
func ReadLocks(data []byte) (names []string, profiles Profiles, err error) {
	names, rows, err := locksFile.read(data)
	if err != nil {
		return nil, nil, err
	}
	profiles = make(Profiles)
	for _, name := range names {
		var p [2]locks.Profile
		for side, units := range rows[name] {
			v := make([]float64, len(profileUnits))
			given := make([]bool, len(profileUnits))
			for _, u := range units {
				if given[u.unit] {
					return nil, nil, fmt.Errorf("%s's %s of %s given twice", sides[side], profileUnits[u.unit], name)
				}
				v[u.unit], given[u.unit] = u.value, true
			}
			if i := slices.Index(given, false); i >= 0 {
				return nil, nil, fmt.Errorf("%s has no %s of %s: a profile cut short is not judged", name, profileUnits[i], sides[side])
			}
			p[side] = locks.FromValues(v[:len(locks.Units)])
			if acq, held := v[len(locks.Units)], v[len(locks.Units)+1]; acq > 0 {
				p[side].Locks = []locks.LockProfile{{Kind: busiestKind, Exclusive: acq, HeldExclusive: held}}
			}
			if err := p[side].Check(sides[side] + "'s " + name); err != nil {
				return nil, nil, err
			}
		}
		profiles[name] = p
	}
	return names, profiles, nil
}
