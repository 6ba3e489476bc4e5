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
		verdict, decided := decidedBy(doc.Verdict, name, a.th.Metric)
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

// decidedBy is a cell's verdict over every thread count and witness (its
// worst, compare's order) and the witnesses that gave it, in words.
func decidedBy(rep *compare.Report, cell, metric string) (compare.Verdict, []string) {
	var worst compare.Verdict
	var who []string
	for _, c := range rep.Cells {
		if records.AtThreads(c.Name, 1) != cell || c.Verdict == compare.NotGated {
			continue
		}
		w := witness(c, metric)
		switch {
		case worst == "" || c.Verdict.Severity() > worst.Severity():
			worst, who = c.Verdict, []string{w}
		case c.Verdict == worst && !slices.Contains(who, w):
			who = append(who, w)
		}
	}
	return worst, who
}

// witness names what gave a verdict.
func witness(c compare.CellVerdict, metric string) string {
	threads := records.NameKey(c.Name, "threads")
	switch {
	case c.Unit == metric && threads == "1":
		return "time at 1 thread"
	case c.Unit == metric:
		return "time at " + threads + " threads"
	case compare.Predicted(c.Unit):
		return "the prediction"
	case c.Unit == records.Instructions:
		return "instructions/op"
	case slices.Contains(records.LockUnits, c.Unit):
		return "the lock profile"
	}
	return c.Unit
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
