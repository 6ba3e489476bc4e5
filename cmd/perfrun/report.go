package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
)

func cmdReport(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("report", "[flags] FILE | OLD NEW", `Report writes a Markdown page for a pull-request comment and a
self-contained HTML page (inline SVG, no network) of one run, or of a
comparison with its gate verdict first. Plots go to DIR/images.`, stderr)
	dir := fs.String("o", "perfrun-report", "output directory: report.md, report.html, images/")
	title := fs.String("title", "perfrun report", "page title")
	th := compare.DefaultThresholds
	fs.Float64Var(&th.MinEffect, "threshold", th.MinEffect, "gate: minimum effect as a fraction")
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	doc := &report.Document{Title: *title}
	switch fs.NArg() {
	case 1:
		s, err := compare.ReadFile(fs.Arg(0))
		if err != nil {
			errorf(stderr, "report", "%v", err)
			return exitUsage
		}
		doc.New = s
	case 2:
		old, new, code := readPair("report", fs.Args(), stderr)
		if code >= 0 {
			return code
		}
		rep, err := compare.Gate(old, new, th)
		if err != nil {
			errorf(stderr, "report", "%v", err)
			return exitUsage
		}
		doc.Old, doc.New, doc.Verdict = old, new, rep
		doc.Rows, _ = compare.Compare(old, new)
	default:
		errorf(stderr, "report", "want one results file, or two to compare")
		return exitUsage
	}
	if err := writeDocument(doc, *dir); err != nil {
		errorf(stderr, "report", "%v", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(*dir, "report.md"), filepath.Join(*dir, "report.html"))
	return exitOK
}

// writeDocument draws the plots of doc.New and writes dir/report.md,
// dir/report.html and dir/images.
func writeDocument(doc *report.Document, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plots, _, err := drawPlots(doc.New, filepath.Join(dir, "images"))
	if err != nil {
		return err
	}
	doc.Plots, doc.ImageDir = plots, "images"
	var md, page bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&page); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "report.md"), md.Bytes()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), page.Bytes())
}
