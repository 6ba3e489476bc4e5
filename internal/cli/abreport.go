package cli

import (
	"path/filepath"
	"slices"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// abReport writes the report of an A/B run: the paired verdict, and plots
// of the base and head arms' results side by side.
func (a *abOptions) abReport(res *campaign.Result) error {
	rep := res.Report
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
		Notes:   []string{res.Method()},
	}
	return a.writeABDocument(doc, a.reportDir, res)
}

// writeABDocument writes doc, a comparison's page, with the strips of its
// cells' windows, and the files -replay reads: windows.csv (measured on a
// machine of res.Cores cores) and the counts.
func (a *abOptions) writeABDocument(doc *report.Document, dir string, res *campaign.Result) error {
	if err := res.Lead(doc); err != nil {
		return err
	}
	var cells []string // each cell once, though it has a verdict on several units
	for _, c := range doc.Verdict.Cells {
		if !slices.Contains(cells, c.Name) {
			cells = append(cells, c.Name)
		}
	}
	strips, err := report.WindowStrips(cells, res.Windows)
	if err != nil {
		return err
	}
	if strips == nil {
		return writeDocument(doc, dir, nil)
	}
	doc.Extra = append(doc.Extra, strips)
	return writeDocument(doc, dir, res.Recording(cells))
}
