package cli

import (
	"fmt"
	"slices"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/scaling"
)

// lead gives a comparison's page its opening: for each cell the change
// moved, its predicted change past the cores, which witnesses
// decided the cell, and a picture of both arms with the points measured;
// and the cells it did not move, whose undecided time is the host's.
func (a *abOptions) lead(doc *report.Document, res *campaign.Result) error {
	predicted, windows := res.Predicted, res.Windows
	if len(predicted.Cells) == 0 {
		return nil
	}
	doc.PredictedAt, doc.Unmoved = res.PredictedAt, make(map[string]bool)
	var names []string
	for _, c := range doc.Verdict.Cells {
		if _, ok := predicted.Cells[c.Name]; ok && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	for i, name := range names {
		p := predicted.Cells[name]
		verdict, decided := doc.Verdict.DecidedOf(name)
		if len(p.Causes) == 0 && verdict != compare.Regression && verdict != compare.Improved {
			doc.Unmoved[name] = true
			continue
		}
		base, head := measuredPoints(windows, name)
		l, err := report.ScalingLead(p, verdict, decided, base, head, fmt.Sprintf("at-%d-threads-%d", res.PredictedAt, i+1))
		if err != nil {
			return err
		}
		doc.Leads = append(doc.Leads, l)
	}
	return nil
}

// measuredPoints are base's and head's measured time per call at each
// thread count the comparison measured the cell at: a window's value is
// wall time over all threads' operations, so one worker's time per call
// is it times the threads.
func measuredPoints(windows map[string][]compare.Window, cell string) (base, head report.Measured) {
	base, head = make(report.Measured), make(report.Measured)
	for n := 1; n <= scaling.DefaultThreads*4; n++ {
		w, ok := windows[records.AtThreads(cell, n)]
		if !ok {
			continue
		}
		if t := abcount.BaseTime(w); t > 0 {
			base[n] = t * float64(n)
		}
		if t := abcount.HeadTime(w); t > 0 {
			head[n] = t * float64(n)
		}
	}
	return base, head
}
