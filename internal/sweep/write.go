package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/summary"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// write writes what a run produced: the results file, the baseline, the
// plots, the printed table and the summary; noPrediction is why the
// table past the cores has no counts to stand on ("" where it has).
func (s *Sweep) write(o *subcommand.Streams, res *harness.Outcome, noPrediction string) error {
	set := res.Set()
	var unsaved error
	var prev *previousRun
	if s.Out != "" || s.SaveAs != "" {
		var buf bytes.Buffer
		if err := set.Write(&buf); err != nil {
			return err
		}
		if s.Out != "" {
			p, err := keepPrevious(s.Out)
			if err != nil {
				// The measurements matter more than the previous file.
				fmt.Fprintf(o.Stderr, "perfrun: run: the previous results were not kept (%v); writing this run's\n", err)
			}
			prev = p
			if err := regularfile.Write(s.Out, buf.Bytes()); err != nil {
				return err
			}
		}
		if s.SaveAs != "" && !res.Incomplete {
			var err error
			if unsaved, err = s.saveBaseline(o, set, buf.Bytes()); err != nil {
				return err
			}
		}
	}
	if dir := s.Plots; dir != "none" && (dir != "" || s.Out != "") {
		if dir == "" {
			dir = PlotsDir(s.Out)
		}
		files, err := DrawPlots([]*records.Set{set}, dir)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		if len(files) > 0 && !s.Quiet {
			fmt.Fprintf(o.Stderr, "perfrun: wrote %d plots to %s\n", len(files), dir)
		}
	}
	if err := Printers[s.Format](o.Stdout, set, harness.Cores()); err != nil {
		return err
	}
	if s.Predict > 0 && s.Format == "table" && !res.Incomplete {
		s.pastTheCores(o, set, noPrediction)
	}
	if !s.Quiet {
		summary.Summarize(o.Stderr, res, set)
		if prev != nil && !res.Incomplete {
			sincePrevious(o.Stderr, prev, set, s.Out)
		}
	}
	if s.Out != "" && !s.Quiet {
		fmt.Fprintf(o.Stderr, "perfrun: wrote %s (%d samples, %s); read it with: benchstat -filter '%s' -col /impl -row '.name /threads' %s\n",
			s.Out, len(res.Samples), res.Wall.Round(time.Second), records.BenchstatFilter, s.Out)
	}
	if res.Incomplete {
		notSaved := ""
		if s.SaveAs != "" {
			notSaved = fmt.Sprintf("; baseline %s not saved (an interrupted run is no baseline)", s.SaveAs)
		}
		return fmt.Errorf("interrupted: kept the %d completed rounds%s", res.CompletedRounds(), notSaved)
	}
	if unsaved != nil {
		return unsaved
	}
	note, err := summary.Busy(set)
	if note != "" {
		fmt.Fprintf(o.Stderr, "perfrun: run: %s\n", note)
	}
	if errors.Is(err, summary.ErrNothingMeasured) {
		return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: err}
	}
	return err
}

// saveBaseline keeps the run as baseline s.SaveAs, with the build that
// measured it. unsaved is the run's end when the machine decided cells: a
// baseline without them would leave later gates of them nothing to judge.
func (s *Sweep) saveBaseline(o *subcommand.Streams, set *records.Set, data []byte) (unsaved, err error) {
	if lost := summary.Unjudgeable(set); len(lost) > 0 {
		// Said after the tables, which still print.
		return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: fmt.Errorf("baseline %s not saved: every sample of %s was set aside (the machine disturbed them); "+
			"a baseline without them would make every later gate of those cells INCONCLUSIVE; run again", s.SaveAs, strings.Join(lost, ", "))}, nil
	}
	// The build first: results are never left beside a build that did not
	// measure them.
	bin, buildErr := baselines.SaveBuild(s.SaveAs, data)
	path, err := baselines.Save(s.SaveAs, data, regularfile.WriteOwned)
	if err != nil {
		return nil, err
	}
	if !s.Quiet {
		fmt.Fprintf(o.Stderr, "perfrun: saved baseline %s (%s); gate against it with: perfrun gate -baseline %s NEW\n", s.SaveAs, path, s.SaveAs)
	}
	switch {
	case buildErr != nil:
		fmt.Fprintf(o.Stderr, "perfrun: baseline %s: its build was not kept (%v): ab -baseline %s cannot measure it again\n", s.SaveAs, buildErr, s.SaveAs)
	case !s.Quiet:
		fmt.Fprintf(o.Stderr, "perfrun: kept the build that measured it (%s); measure it again beside a later build, interleaved, with: perfrun ab -baseline %s\n", bin, s.SaveAs)
	}
	return nil, nil
}

// pastTheCores prints what the designs' counts predict at -predict
// threads (summary.WritePast), or why there is no prediction.
func (s *Sweep) pastTheCores(o *subcommand.Streams, set *records.Set, noPrediction string) {
	if noPrediction != "" {
		fmt.Fprintf(o.Stderr, "perfrun: run: no prediction at %d threads: a count failed: %s\n", s.Predict, noPrediction)
		return
	}
	if err := summary.WritePast(o.Stdout, set, s.Predict); err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: run: no prediction at %d threads: %v\n", s.Predict, err)
	}
}

// PlotsDir is where plots of a results file go by default.
func PlotsDir(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + "-plots"
}

// PlotOptions draw with the cores of the results (this machine's if they
// do not say) and the registry's colour for each implementation.
func PlotOptions(sets []*records.Set) report.PlotOptions {
	cores := 0
	for _, s := range sets {
		cores = max(cores, s.Cores())
	}
	if cores == 0 {
		cores = harness.Cores()
	}
	return report.PlotOptions{Cores: cores, Impls: impls.Names()}
}

// DrawPlots draws every plot the results support into dir, as SVG and
// PNG, and returns the files written. Results with nothing to plot (one
// thread count, one size) give none, which is not an error.
func DrawPlots(sets []*records.Set, dir string) ([]string, error) {
	plots, err := report.Plots(sets, PlotOptions(sets))
	if err != nil || len(plots) == 0 {
		return nil, err
	}
	return report.SavePlots(dir, plots, regularfile.WriteOwned)
}
