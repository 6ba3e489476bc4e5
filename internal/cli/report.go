package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/records"
)

var cmdReport = &command{
	maxArgs: 2, name: "report", args: "[flags] FILE | OLD NEW", short: "write a Markdown comment and a self-contained HTML page",
	long: `Report writes a Markdown page for a pull-request comment and a
self-contained HTML page (inline SVG, no network) of one run, or of a
comparison with its gate verdict first. Plots go to DIR/images.`,
}

func init() { cmdReport.define = reportFlags }

func reportFlags(fs *flag.FlagSet) runFunc {
	dir := fs.String("o", "perfrun-report", "output directory: report.md, report.html, images/")
	title := fs.String("title", "perfrun report", "page title")
	th := thresholdFlags(fs)
	return func(_ context.Context, o *streams, args []string) error {
		if err := checkThresholds(th); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return usageError("want one results file, or two to compare")
		}
		sets, err := readSets("report", fs.Args(), o)
		if err != nil {
			return err
		}
		doc := &report.Document{Title: *title, New: sets[len(sets)-1]}
		if len(sets) == 2 {
			rep, err := compare.Gate(sets[0], sets[1], *th)
			if err != nil {
				return asUsage(err)
			}
			doc.Old, doc.Verdict = sets[0], rep
			doc.Rows, _ = compare.Compare(sets[0], sets[1])
		}
		if err := writeDocument(doc, *dir); err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "wrote %s and %s\n", filepath.Join(*dir, "report.md"), filepath.Join(*dir, "report.html"))
		return nil
	}
}

// clearReport makes dir and removes what an earlier report wrote there:
// report.md, report.html, more pages, and images/*.svg and *.png.
func clearReport(dir string, more ...string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	patterns := append([]string{"report.md", "report.html", filepath.Join("images", "*.svg"), filepath.Join("images", "*.png")}, more...)
	for _, pattern := range patterns {
		old, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeDocument draws the plots of doc — for a comparison the verdict's
// forest plot first, then old and new side by side — and writes
// dir/report.md, dir/report-full.md (comparisons), dir/report.html and
// dir/images, after removing what an earlier report wrote there.
func writeDocument(doc *report.Document, dir string) error {
	if err := clearReport(dir, report.FullMarkdown); err != nil {
		return err
	}
	images := filepath.Join(dir, "images")
	sets := []*records.Set{doc.New}
	if doc.Old != nil {
		sets = []*records.Set{doc.Old, doc.New}
	}
	opts := plotOptions(sets)
	opts.ByLabel = doc.Old != nil
	plots, err := report.Plots(sets, opts)
	if err != nil {
		return err
	}
	plots = append(doc.Extra, plots...)
	if doc.Verdict != nil {
		forest, err := report.ForestPlot(doc.Verdict)
		if err != nil {
			return err
		}
		if forest != nil {
			plots = append([]*report.Plot{forest}, plots...)
		}
	}
	if _, err := report.SavePlots(images, plots, writeOwned); err != nil {
		return err
	}
	doc.Plots, doc.ImageDir = plots, "images"
	var md, full, page bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&page); err != nil {
		return err
	}
	if err := writeOwned(filepath.Join(dir, "report.md"), md.Bytes()); err != nil {
		return err
	}
	if doc.Verdict != nil {
		doc.WriteMarkdownFull(&full)
		if err := writeOwned(filepath.Join(dir, report.FullMarkdown), full.Bytes()); err != nil {
			return err
		}
	}
	return writeOwned(filepath.Join(dir, "report.html"), page.Bytes())
}
