package compare

import (
	"fmt"
	"slices"

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
	// Settled, if set, names the undecided cells other witnesses decide
	// (SettledByCounts): no further look measures them.
	Settled func(rep *Report, undecided []string) []string
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
	lost := setAside(arms)
	for k := 2; k <= looks.Max; k++ {
		undecided := rep.leaveLost(lost, k-1)
		if looks.Settled != nil {
			settled := looks.Settled(rep, undecided)
			undecided = slices.DeleteFunc(undecided, func(n string) bool { return slices.Contains(settled, n) })
		}
		if len(undecided) == 0 || looks.Next != nil && !looks.Next(k, undecided) {
			break
		}
		more, moreArms, _, err := measure(undecided, (k-1)*looks.Rounds)
		if err != nil {
			return nil, err
		}
		lost = setAside(moreArms)
		for _, c := range more {
			a := arms[c.Name]
			a.Merge(moreArms[c.Name])
			arms[c.Name] = a
		}
		rep.Replace(GatePaired(more, arms, cores, look), k)
	}
	return rep, nil
}

// setAside are the cells of a look's arms of which the machine set aside
// so much that not one complete round was left.
func setAside(arms map[string]Arms) map[string]bool {
	out := make(map[string]bool)
	for name, a := range arms {
		if d, _ := a.paired(); len(d) == 0 && a.Aside > 0 {
			out[name] = true
		}
	}
	return out
}

// leaveLost returns the undecided cells worth another look: a cell of
// which the machine kept no complete round in the look just done (every
// window of it disturbed for the whole look, as beside a neighbour job
// that holds a core) is left undecided with the reason, not measured
// again; the next look's rounds would most likely be set aside too, and
// would cost as much as the others'.
func (r *Report) leaveLost(lost map[string]bool, look int) []string {
	for i := range r.Cells {
		if c := &r.Cells[i]; c.undecided && lost[c.Name] {
			c.undecided = false
			c.Reason += fmt.Sprintf("; not measured again: batch %d of rounds kept no complete round of it", look)
		}
	}
	return r.Undecided()
}
