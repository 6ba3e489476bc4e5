package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/summary"
	"github.com/perfrun/perfrun/internal/sweep"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/publish"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

var cmdReport = &subcommand.Command{
	MaxArgs: 2, Name: "report", Args: "[flags] FILE | OLD NEW", Short: "write a Markdown comment and a self-contained HTML page",
	Long: `Report writes a Markdown page for a pull-request comment and a
self-contained HTML page (inline SVG, no network) of one run, or of a
comparison with its gate verdict first. Plots go to DIR/images.`,
}

func init() { cmdReport.Define = reportFlags }

func reportFlags(fs *flag.FlagSet) subcommand.RunFunc {
	dir := fs.String("o", filepath.Join(filepath.Dir(sweep.DefaultOutput), "report"), "output directory: report.md, report.html, images/")
	title := fs.String("title", "perfrun report", "page title")
	th := thresholdFlags(fs)
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		if err := checkThresholds(th); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return subcommand.UsageError("want one results file, or two to compare")
		}
		if err := subcommand.AsUsage(regularfile.CheckOutputs("", *dir)); err != nil {
			return err
		}
		sets, err := readSets("report", fs.Args(), o)
		if err != nil {
			return err
		}
		doc := &report.Document{Title: *title, New: sets[len(sets)-1]}
		if len(sets) == 2 {
			rep, err := compare.Gate(sets[0], sets[1], *th)
			if err != nil {
				return subcommand.AsUsage(err)
			}
			doc.Old, doc.Verdict = sets[0], rep
			doc.Rows, _ = compare.Compare(sets[0], sets[1])
		} else if err := predictedSection(doc, sets[0], mainJobPredicts); err != nil {
			return err
		}
		if err := writeDocument(doc, *dir, nil); err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "wrote %s and %s\n", filepath.Join(*dir, "report.md"), filepath.Join(*dir, "report.html"))
		return nil
	}
}

// writeDocument publishes doc in dir: report.md, report-full.md
// (comparisons), report.html and images/, with more files (such as ab's
// windows.csv) — all or nothing, replacing only what perfrun wrote there.
func writeDocument(doc *report.Document, dir string, more map[string][]byte) error {
	pub, err := renderDocument(doc)
	if err != nil {
		return err
	}
	for name, data := range more {
		pub.Add(name, data)
	}
	pub.Dir = dir
	return pub.Publish()
}

// renderDocument draws the plots of doc — for a comparison the verdict's
// forest plot first, then old and new side by side — and renders its pages.
func renderDocument(doc *report.Document) (*publish.Folder, error) {
	pub := publish.New("")
	var plots []*report.Plot
	if doc.New != nil { // a replayed comparison has its verdict and windows alone
		sets := []*records.Set{doc.New}
		if doc.Old != nil {
			sets = []*records.Set{doc.Old, doc.New}
		}
		opts := sweep.PlotOptions(sets)
		opts.ByLabel = doc.Old != nil
		var err error
		if plots, err = report.Plots(sets, opts); err != nil {
			return nil, err
		}
	}
	plots = append(doc.Extra, plots...)
	if doc.Verdict != nil {
		forest, err := report.ForestPlot(doc.Verdict)
		if err != nil {
			return nil, err
		}
		if forest != nil {
			plots = append([]*report.Plot{forest}, plots...)
		}
	}
	if err := pub.AddPlots("images", plots); err != nil {
		return nil, err
	}
	var leads []*report.Plot
	for _, l := range doc.Leads {
		leads = append(leads, l.Plot)
	}
	if err := pub.AddPlots("images", leads); err != nil {
		return nil, err
	}
	doc.Plots, doc.ImageDir = plots, "images"
	var md, full, page bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&page); err != nil {
		return nil, err
	}
	pub.Add("report.md", md.Bytes())
	if doc.Verdict != nil {
		doc.WriteMarkdownFull(&full)
		pub.Add(report.FullMarkdown, full.Bytes())
		var comment bytes.Buffer
		doc.WriteComment(&comment)
		pub.Add(report.CommentFile, comment.Bytes())
	}
	pub.Add("report.html", page.Bytes())
	return pub, nil
}

// predictedSection adds to the report of one run with lock profiles (the
// main job's) what they predict at n threads, as the run printed it: a
// line a design with its cause, and the predicted curves with their
// bands. A run with no lock profile gets none.
func predictedSection(doc *report.Document, set *records.Set, n int) error {
	m, _ := summary.FromCounts(set)
	if _, _, err := predict.Inputs(set, m); err != nil {
		return nil // nothing to predict from: not the report's to say
	}
	rows, pred, err := summary.Past(set, n)
	if err != nil || len(rows) == 0 {
		return err
	}
	doc.Notes = append(doc.Notes, fmt.Sprintf("At %d threads, one core a thread, each design's counts predict (its 1-thread lock profile and its instructions at the reference time per instruction, with the reference constants, docs/predict.md; not measured):", n))
	for _, r := range rows {
		beside := ""
		if r.Published != "" {
			beside = " Beside it: " + r.Published + "."
		}
		doc.Notes = append(doc.Notes, fmt.Sprintf("- %s: %s a call (band %s – %s), %.2f× its time at 1 thread; measured %s at 1 thread, %s at 2. Why: %s.%s",
			r.Name, summary.PerCall(r.At), summary.PerCall(r.Low), summary.PerCall(r.High), r.Ratio, r.One, r.Two, r.Cause, beside))
	}
	plots, err := report.Plots([]*records.Set{pred}, report.PlotOptions{})
	if err != nil {
		return err
	}
	for _, p := range plots {
		if strings.HasSuffix(p.Name, "-latency") {
			p.Name = "predicted-" + p.Name
			p.Caption = fmt.Sprintf("predicted from each design's lock profile, 1 to %d threads, one core a thread (not measured): %s", n, p.Caption)
			doc.Extra = append(doc.Extra, p)
		}
	}
	return nil
}
