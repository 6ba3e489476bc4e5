package history

import (
	"fmt"
	"time"
)

// Fleet sets Shared on every step whose cell and unit stepped the same
// way on other machines too, over commits that overlap in time: each
// machine measures its own commits, so one change shows as steps whose
// spans (the commit before, the commit after] overlap. A step every
// machine with the series shares is the change's, not one machine's.
func Fleet(steps []Step, series []*Series) {
	machines := make(map[[2]string]map[string]bool) // cell, unit → machines with the series
	for _, s := range series {
		k := [2]string{s.Cell, s.Unit}
		if machines[k] == nil {
			machines[k] = make(map[string]bool)
		}
		machines[k][s.Machine] = true
	}
	for i := range steps {
		st := &steps[i]
		k := [2]string{st.Series.Cell, st.Series.Unit}
		if len(machines[k]) < 2 {
			continue
		}
		lo, hi := st.span()
		with := map[string]bool{st.Series.Machine: true}
		for _, o := range steps {
			if o.Series.Cell != st.Series.Cell || o.Series.Unit != st.Series.Unit || with[o.Series.Machine] ||
				o.Regression != st.Regression {
				continue
			}
			if olo, ohi := o.span(); olo.Before(hi) && lo.Before(ohi) {
				with[o.Series.Machine] = true
			}
		}
		if len(with) > 1 {
			st.Shared = fmt.Sprintf("on %d of %d machines", len(with), len(machines[k]))
			if len(with) == len(machines[k]) {
				st.Shared = fmt.Sprintf("on every machine (%d)", len(with))
			}
		}
	}
}

// span is when the step happened: after its commit before was made, and
// by the time its commit after was.
func (s Step) span() (after, by time.Time) {
	return s.Series.Points[s.Index-1].Time, s.Series.Points[s.Index].Time.Add(time.Nanosecond)
}
