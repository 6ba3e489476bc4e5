package campaign

import (
	"fmt"
	"slices"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// Method says how the campaign measured and judged, for its page.
func (res *Result) Method() string {
	rep, r := res.Report, res.Runner
	return fmt.Sprintf("Interleaved A/B on one machine: rounds of base, head and base again (the same code measured twice, which shows what the machine alone moves), %s%s; "+
		"%d rounds a batch, cells a batch left undecided measured again in the next. PASS: the upper bound of the slowdown is below %.0f%%; "+
		"REGRESSION: its lower bound is above it (corrected for the number of cells and of batches).%s", pairingNote(r), layoutNote(r), r.Rounds, 100*rep.Threshold, countsNote(res.Counts)+locksNote(len(res.Profiles) > 0))
}

// Lead gives a comparison's page its opening: for each cell the change
// moved, its predicted change past the cores, which witnesses
// decided the cell, and a picture of both arms with the points measured;
// and the cells it did not move, whose undecided time is the host's.
func (res *Result) Lead(doc *report.Document) error {
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
	for n := 1; n <= predict.DefaultThreads*4; n++ {
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

// layoutNote says how the arms' code layouts were chosen.
func layoutNote(r *ab.Runner) string {
	if r.BaseRev != nil {
		return ", every arm of every round in a code layout of its own"
	}
	return ""
}

// countsNote says what the instruction verdicts are, where there are any.
func countsNote(counts map[string][2][]float64) string {
	if len(counts) == 0 {
		return ""
	}
	return " instructions/op of each 1-thread cell was counted under callgrind in both revisions on the same corpus and operations, " +
		"and compared at the same threshold: either verdict's REGRESSION fails the cell; a count cannot see cache misses or contention."
}

// locksNote says what the lock verdicts are, where there are any.
func locksNote(profiled bool) string {
	if !profiled {
		return ""
	}
	return " The lock profile of each 1-thread cell (exclusive and shared locks, instructions held under each, atomic read-modify-writes, per op) " +
		"was counted exactly in both revisions, built with every lock hooked: more exclusive locks, more instructions under one, " +
		"or more atomics than -threshold allows is a REGRESSION; shared locks are shown, not gated. A profile counts what causes contention " +
		"at one thread, not the waiting it causes."
}

// pairingNote says how the arms of a round were paired.
func pairingNote(r *ab.Runner) string {
	if r.Windows {
		return fmt.Sprintf("driven window by window (%d triples of one window per arm and cell, rotating orders)", r.Inner)
	}
	return "one whole process per arm, in balanced orders"
}
