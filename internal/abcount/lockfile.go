package abcount

import (
	"fmt"
	"slices"

	"github.com/perfrun/perfrun/harness/locks"
)

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
		v, ok := parseCounts(columns[1:])
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
			l := p[side].Lines
			for i, v := range append(p[side].Values(), acq, held, l.Hottest, l.Others, l.OtherTransfers,
				p[side].OtherLocks(), p[side].BusiestSpinning(), p[side].OtherSpinning(), p[side].UnseenAtomics()) {
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
			// The lines and the spread are optional, each group all or
			// none, the spread only after the lines: a file from before
			// them has every atomic on one line, its other locks as one.
			need := given[:lineUnit]
			if slices.Contains(given[lineUnit:], true) {
				need = given[:spreadUnit]
			}
			if slices.Contains(given[spreadUnit:], true) {
				need = given
			}
			if i := slices.Index(need, false); i >= 0 {
				return nil, nil, fmt.Errorf("%s has no %s of %s: a profile cut short is not judged", name, profileUnits[i], sides[side])
			}
			p[side] = locks.FromValues(v[:len(locks.Units)])
			p[side].Locks = recordedLocks(p[side], v[len(locks.Units)], v[len(locks.Units)+1], v[spreadUnit:spreadUnit+3])
			p[side].Lines = locks.Lines{Hottest: v[lineUnit], Others: v[lineUnit+1], OtherTransfers: v[lineUnit+2]}
			p[side].Kinds = given[spreadUnit]
			if u := v[spreadUnit+3]; u > 0 {
				p[side].Unseen = []locks.Unseen{{What: unseenKinds, Atomics: u}}
			}
			if err := p[side].Check(sides[side] + "'s " + name); err != nil {
				return nil, nil, err
			}
		}
		profiles[name] = p
	}
	return names, profiles, nil
}

// recordedLocks are the locks a recorded profile p describes: its busiest
// (acquisitions acq holding held) and the rest as spread[0] locks of
// equal weight, holding what the busiest does not; spread[1] says whether
// the busiest's waiters spin first, spread[2] how many of the rest's
// acquisitions are of locks whose waiters do, the rest's locks shared
// between the two as their acquisitions are.
func recordedLocks(p locks.Profile, acq, held float64, spread []float64) []locks.LockProfile {
	if !(acq > 0) {
		return nil
	}
	out := []locks.LockProfile{{Kind: busiestKind, Exclusive: acq, HeldExclusive: held, Spin: spread[1] == 1}}
	rest, others := p.ExclusiveLocks-acq, spread[0]
	if !(rest > 0) || !(others > 0) {
		return out
	}
	restHeld := max(0, p.LockedInstructions-held)
	spin := min(spread[2], rest)
	for _, part := range []struct {
		acq  float64
		spin bool
	}{{spin, true}, {rest - spin, false}} {
		if part.acq > 0 {
			share := part.acq / rest
			out = append(out, locks.LockProfile{Kind: busiestKind, Exclusive: part.acq, HeldExclusive: restHeld * share, Count: others * share, Spin: part.spin})
		}
	}
	return out
}

// unseenKinds names a recorded profile's blind spot: the file keeps its
// atomics, not its kind.
const unseenKinds = "locks the profile cannot see (the runtime's, internal/sync's, a C library's)"
