package compare

import (
	"github.com/perfrun/perfrun/records"
)

// Measure runs rounds of an A/B comparison with round ids from first on:
// all cells when names is nil, else only those. It returns the cells
// measured, their arms by round id, and the machine's cores.
type Measure func(names []string, first int) ([]*records.Cell, map[string]Arms, int, error)

// Sequential is ab's design: decide after rounds rounds where the data
// already can; measure as many fresh rounds of the cells still undecided
// and decide those on all their rounds. Each look tests at Pocock's level,
// so the chance of a false claim over both looks stays th.Alpha. Cells
// decided at the first look keep their verdict; machine time goes where a
// verdict is still missing.
func Sequential(th Thresholds, rounds int, measure Measure) (*Report, error) {
	look := th
	look.Alpha = PocockLevel(th.Alpha, 2)
	cells, arms, cores, err := measure(nil, 0)
	if err != nil {
		return nil, err
	}
	rep := GatePaired(cells, arms, cores, look)
	undecided := rep.Undecided()
	if len(undecided) == 0 {
		return rep, nil
	}
	more, moreArms, _, err := measure(undecided, rounds)
	if err != nil {
		return nil, err
	}
	for _, c := range more {
		a := arms[c.Name]
		a.Merge(moreArms[c.Name])
		arms[c.Name] = a
	}
	rep.Replace(GatePaired(more, arms, cores, look))
	return rep, nil
}
