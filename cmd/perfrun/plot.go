package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
)

func cmdPlot(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("plot", "[flags] FILE...", `Plot redraws the pictures of saved results: latency, throughput and speedup
against threads per workload, and ns/add against n for load, as SVG and PNG.`, stderr)
	dir := fs.String("o", "", "output directory (default: FILE without extension, plus -plots)")
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		errorf(stderr, "plot", "want at least one results file")
		return exitUsage
	}
	merged := &compare.Set{Values: make(map[string]map[string][]float64)}
	var sets []*compare.Set
	machines := make(map[string]bool)
	for _, f := range fs.Args() {
		s, err := compare.ReadFile(f)
		if err != nil {
			errorf(stderr, "plot", "%v", err)
			return exitUsage
		}
		sets = append(sets, s)
		machines[machineOf(s)] = true
	}
	for _, s := range sets {
		if len(machines) > 1 {
			s = byMachine(s)
		}
		merge(merged, s)
	}
	out := *dir
	if out == "" {
		out = plotsDir(fs.Arg(0))
	}
	_, files, err := drawPlots(merged, out)
	if err != nil {
		errorf(stderr, "plot", "%v", err)
		return exitFailure
	}
	if len(files) == 0 {
		errorf(stderr, "plot", "nothing to plot: need at least two thread counts, or two sizes n for load")
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote %d files to %s\n", len(files), out)
	return exitOK
}

// merge adds s's values to into.
func merge(into, s *compare.Set) {
	into.Cores = max(into.Cores, s.Cores)
	for _, name := range s.Names {
		if into.Values[name] == nil {
			into.Values[name] = make(map[string][]float64)
			into.Names = append(into.Names, name)
		}
		for unit, v := range s.Values[name] {
			into.Values[name][unit] = append(into.Values[name][unit], v...)
		}
	}
}

// machineOf names the machine a results file came from: its "machine"
// configuration line, else its cpu and cores.
func machineOf(s *compare.Set) string {
	if m := s.Config["machine"]; m != "" {
		return m
	}
	return s.Config["cpu"] + " x" + s.Config["cores"]
}

// byMachine renames each implementation impl=X to impl=X@machine, so
// results of several machines plot as separate lines.
func byMachine(s *compare.Set) *compare.Set {
	m := machineOf(s)
	out := &compare.Set{Label: s.Label, File: s.File, Cores: s.Cores, Config: s.Config, Values: make(map[string]map[string][]float64)}
	for _, name := range s.Names {
		rest, impl := compare.SplitImpl(name)
		renamed := name
		if impl != "" {
			head, tail, _ := strings.Cut(rest, "/")
			renamed = head + "/impl=" + impl + "@" + m
			if tail != "" {
				renamed += "/" + tail
			}
		}
		out.Names = append(out.Names, renamed)
		out.Values[renamed] = s.Values[name]
	}
	return out
}

// plotsDir is where plots of a results file go by default.
func plotsDir(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + "-plots"
}

// drawPlots draws every plot the results support into dir, as SVG and PNG,
// and returns the plots and the files written. Results with nothing to
// plot (one thread count, one size) give none, which is not an error.
func drawPlots(s *compare.Set, dir string) ([]*report.Plot, []string, error) {
	cores := s.Cores
	if cores == 0 {
		cores = harness.Cores()
	}
	plots, err := report.Plots(s, cores)
	if err != nil || len(plots) == 0 {
		return nil, nil, err
	}
	files, err := report.SavePlots(dir, plots)
	return plots, files, err
}

// resultsSet turns fresh results into the same data a results file holds,
// so run and plot draw identical pictures.
func resultsSet(res *harness.Results) (*compare.Set, error) {
	var buf bytes.Buffer
	if err := report.WriteBenchfmt(&buf, res); err != nil {
		return nil, err
	}
	return compare.Read(&buf, "results", "results")
}
