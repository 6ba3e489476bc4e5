package abcount

import (
	"fmt"
	"slices"

	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/predict"
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
			for i, v := range predict.ProfileValues(p[side].Cell(name, 0)) {
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
			if missing := cutShort(given); missing >= 0 {
				return nil, nil, fmt.Errorf("%s has no %s of %s: a profile cut short is not judged", name, profileUnits[missing], sides[side])
			}
			var c predict.Cell
			predict.SetProfile(&c, v, given)
			p[side] = locks.FromCell(c)
			if err := p[side].Check(sides[side] + "'s " + name); err != nil {
				return nil, nil, err
			}
		}
		profiles[name] = p
	}
	return names, profiles, nil
}

// cutShort is the first unit of a profile's groups that a file left out
// where it may not, -1 where none: the gated and the busiest units are
// every profile's; the lines and the spread are optional, each group all
// or none, the spread only after the lines (a file from before them has
// every atomic on one line, its other locks as one).
func cutShort(given []bool) int {
	last := predict.BusiestUnits
	for i, u := range predict.ProfileUnits {
		if given[i] {
			last = max(last, u.Group)
		}
	}
	for i, u := range predict.ProfileUnits {
		if u.Group <= last && !given[i] {
			return i
		}
	}
	return -1
}
