package compare

import (
	"github.com/perfrun/perfrun/records"
)

// Measure runs rounds of an A/B comparison with round ids from first on:
// all cells when names is nil, else only those. It returns the cells
// measured, their arms by round id, and the machine's cores.
type Measure func(names []string, first int) ([]*records.Cell, map[string]Arms, int, error)

// Looks bound a sequential comparison: each look measures Rounds fresh
// rounds of the cells still undecided, at most Max looks. Next, if set,
// is asked before every look after the first whether it fits (a time
// budget): stopping early only leaves cells INCONCLUSIVE, so it never
// costs the error rate.
type Looks struct {
	Rounds int
	Max    int
	Next   func(look int, undecided []string) bool
}

// Sequential is ab's design: decide after Rounds rounds where the data
// already can; measure as many fresh rounds of the cells still undecided
// and decide those on all their rounds; and so on, up to Max looks. Each
// look tests at Pocock's level for Max looks, so the chance of a false
// claim of each kind over all looks stays th.Alpha. Cells decided at a
// look keep their verdict; machine time goes where a verdict is still
// missing.
func Sequential(th Thresholds, looks Looks, measure Measure) (*Report, error) {
	look := th
	look.Alpha = PocockLevel(th.Alpha, max(looks.Max, 1))
	cells, arms, cores, err := measure(nil, 0)
	if err != nil {
		return nil, err
	}
	rep := GatePaired(cells, arms, cores, look)
	for k := 2; k <= looks.Max; k++ {
		undecided := rep.Undecided()
		if len(undecided) == 0 || looks.Next != nil && !looks.Next(k, undecided) {
			break
		}
		more, moreArms, _, err := measure(undecided, (k-1)*looks.Rounds)
		if err != nil {
			return nil, err
		}
		for _, c := range more {
			a := arms[c.Name]
			a.Merge(moreArms[c.Name])
			arms[c.Name] = a
		}
		rep.Replace(GatePaired(more, arms, cores, look), k)
	}
	return rep, nil
}
