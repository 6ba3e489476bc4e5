package historycmd

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/publish"
	"github.com/perfrun/perfrun/report"
)

// seriesPlots draws the series with at least two commits, each with its
// steps; withSteps only those that have a step. A store's ratio to its
// reference is drawn where a step was found in it alone.
func seriesPlots(series []*history.Series, steps []history.Step, withSteps bool) ([]*report.Plot, int, error) {
	bySeries := make(map[*history.Series][]history.Step)
	for _, st := range steps {
		if bySeries[st.Series] == nil && st.Series.Over != "" {
			series = append(series[:len(series):len(series)], st.Series)
		}
		bySeries[st.Series] = append(bySeries[st.Series], st)
	}
	var plots []*report.Plot
	left := 0
	for _, s := range series {
		if len(s.Points) < 2 || withSteps && len(bySeries[s]) == 0 {
			left++
			continue
		}
		p, err := report.HistoryPlot(s, bySeries[s])
		if err != nil {
			return nil, 0, fmt.Errorf("plot of %s: %w", s.Name(), err)
		}
		plots = append(plots, p)
	}
	return plots, left, nil
}

func historyPlot(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	sf := addSeriesFlags(fs, "ns/op")
	dir := fs.String("o", filepath.Join(filepath.Dir(sweep.DefaultOutput), "history"), "output directory for the SVG and PNG files")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		h, found, err := openSteps(ctx, o.Stderr, *db, sf, false)
		if err != nil {
			return err
		}
		defer h.Close()
		series, steps := found.Series, found.Steps
		plots, left, err := seriesPlots(series, steps, false)
		if err != nil {
			return err
		}
		if len(plots) == 0 {
			return subcommand.UsageError("no series in %s has two commits yet: nothing to draw", h.Path)
		}
		names, err := report.SavePlots(*dir, plots, regularfile.WriteOwned)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "wrote %d files to %s (%d series, %d steps marked", len(names), *dir, len(plots), len(steps))
		if left > 0 {
			fmt.Fprintf(o.Stdout, "; %d series of one commit not drawn", left)
		}
		fmt.Fprintln(o.Stdout, ")")
		return nil
	}
}

func historyReport(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	sf := addSeriesFlags(fs, defaultUnits)
	dir := fs.String("o", filepath.Join(filepath.Dir(sweep.DefaultOutput), "history-report"), "output directory: report.md, report.html, images/")
	title := fs.String("title", "perfrun history", "page title")
	all := fs.Bool("all", false, "draw every series, not only those with steps")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if err := subcommand.AsUsage(regularfile.CheckOutputs("", *dir)); err != nil {
			return err
		}
		h, found, err := openSteps(ctx, o.Stderr, *db, sf, false)
		if err != nil {
			return err
		}
		defer h.Close()
		series, steps := found.Series, found.Steps
		st, err := h.Stats(ctx)
		if err != nil {
			return err
		}
		plots, left, err := seriesPlots(series, steps, !*all)
		if err != nil {
			return err
		}
		doc := &report.HistoryPage{Title: *title, Stats: st, Method: sf.method(), Steps: steps, Plots: plots, ImageDir: "images", Left: left}
		if len(steps) == 0 {
			if doc.Nearest, doc.NearestWhy, err = found.Nearest(ctx); err != nil {
				return err
			}
			long, shortest := found.Testable()
			doc.Testable = fmt.Sprintf("%d of %d series are long enough to show one at -alpha %g (%d commits or more).", long, len(series), *sf.alpha, shortest)
			if !*all {
				if doc.Plots, doc.Left, err = nearestPlots(doc.Nearest, doc.Plots, doc.Left); err != nil {
					return err
				}
			}
		}
		pub := publish.New(*dir)
		if err := pub.AddPlots("images", doc.Plots); err != nil {
			return err
		}
		var md, page bytes.Buffer
		doc.WriteMarkdown(&md)
		if err := doc.WriteHTML(&page); err != nil {
			return err
		}
		pub.Add("report.md", md.Bytes())
		pub.Add("report.html", page.Bytes())
		if err := pub.Publish(); err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "wrote %s and %s (%d steps, %d series drawn)\n", filepath.Join(*dir, "report.md"), filepath.Join(*dir, "report.html"), len(steps), len(doc.Plots))
		return nil
	}
}

// nearestPlots adds to plots the series of each split nearest to a step,
// drawn without a step (none passed), so a page without steps shows where
// one came nearest; a store's own series drawn is one fewer left undrawn.
func nearestPlots(near []history.Step, plots []*report.Plot, left int) ([]*report.Plot, int, error) {
	for _, st := range near {
		p, err := report.HistoryPlot(st.Series, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("plot of %s: %w", st.Series.Name(), err)
		}
		plots = append(plots, p)
		if st.Series.Over == "" {
			left--
		}
	}
	return plots, max(left, 0), nil
}
