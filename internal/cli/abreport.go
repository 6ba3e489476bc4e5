package cli

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// abReport writes the report of an A/B run: the paired verdict, and plots
// of the base and head arms' results side by side.
func (a *abOptions) abReport(res *campaign.Result) error {
	rep, r := res.Report, res.Runner
	arm := func(name, label string) (*records.Set, error) {
		files, _ := filepath.Glob(filepath.Join(res.Dir, "round*-"+name+".txt"))
		return records.ReadFiles(label, files...)
	}
	base, err := arm(ab.ArmBase, rep.Old)
	if err != nil {
		return err
	}
	head, err := arm(ab.ArmHead, rep.New)
	if err != nil {
		return err
	}
	doc := &report.Document{
		Title:   "perfrun: " + rep.New + " against " + rep.Old,
		Verdict: rep,
		Old:     base,
		New:     head,
		Notes: []string{fmt.Sprintf("Interleaved A/B on one machine: rounds of base, head and base again (the same code measured twice, which shows what the machine alone moves), %s%s; "+
			"%d rounds a batch, cells a batch left undecided measured again in the next. PASS: the upper bound of the slowdown is below %.0f%%; "+
			"REGRESSION: its lower bound is above it (corrected for the number of cells and of batches).%s", pairingNote(r), layoutNote(r), r.Rounds, 100*rep.Threshold, countsNote(res.Counts)+locksNote(len(res.Profiles) > 0))},
	}
	return a.writeABDocument(doc, a.reportDir, res)
}

// writeABDocument writes doc, a comparison's page, with the strips of its
// cells' windows, and the files -replay reads: windows.csv (measured on a
// machine of res.Cores cores) and the counts.
func (a *abOptions) writeABDocument(doc *report.Document, dir string, res *campaign.Result) error {
	windows, counts, traffic, profiles := res.Windows, res.Counts, res.Traffic, res.Profiles
	if err := a.lead(doc, res); err != nil {
		return err
	}
	var cells []string // each cell once, though it has a verdict on several units
	for _, c := range doc.Verdict.Cells {
		if !slices.Contains(cells, c.Name) {
			cells = append(cells, c.Name)
		}
	}
	strips, err := report.WindowStrips(cells, windows)
	if err != nil {
		return err
	}
	if strips == nil {
		return writeDocument(doc, dir, nil)
	}
	doc.Extra = append(doc.Extra, strips)
	more := map[string][]byte{"windows.csv": ab.WriteWindows(cells, windows, res.Cores)}
	if len(counts) > 0 {
		more["instructions.csv"] = abcount.WriteInstructions(cells, counts)
	}
	if len(traffic) > 0 {
		more["traffic.csv"] = abcount.WriteTraffic(cells, traffic)
	}
	if len(profiles) > 0 {
		more["locks.csv"] = abcount.WriteLocks(cells, profiles)
	}
	return writeDocument(doc, dir, more)
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
