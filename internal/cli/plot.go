package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"

	"github.com/perfrun/perfrun/records"
)

var cmdPlot = &subcommand.Command{
	MaxArgs: -1, Name: "plot", Args: "[flags] FILE...", Short: "draw latency, throughput, speedup and load plots (SVG, PNG) from results",
	Long: `Plot redraws the pictures of saved results: latency, throughput and speedup
against threads per workload, and ns/add against n for load, as SVG and PNG.
Files from several machines (run -label machine=NAME) draw one line per
implementation and machine: one colour per implementation, dashes per
machine.`,
}

func init() { cmdPlot.Define = plotFlags }

func plotFlags(fs *flag.FlagSet) subcommand.RunFunc {
	dir := fs.String("o", "", "output directory (default: the first FILE without extension, plus -plots)")
	ignore := fs.String("ignore", "", "name keys to leave out, comma-separated (as benchstat's -ignore), so that files whose cells differ only in them share pictures, e.g. certs,hit")
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		if fs.NArg() == 0 {
			return subcommand.UsageError("want at least one results file")
		}
		sets, err := readSets("plot", fs.Args(), o, splitList(*ignore)...)
		if err != nil {
			return err
		}
		out := *dir
		if out == "" {
			out = sweep.PlotsDir(fs.Arg(0))
		}
		files, err := sweep.DrawPlots(sets, out)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("nothing to plot: need at least two thread counts, or two sizes n for load")
		}
		fmt.Fprintf(o.Stdout, "wrote %d files to %s\n", len(files), out)
		return nil
	}
}

// readSets reads results files, printing their warnings, with the name
// keys ignore left out; a file that cannot be read is the user's to fix.
func readSets(cmd string, specs []string, o *subcommand.Streams, ignore ...string) ([]*records.Set, error) {
	var sets []*records.Set
	for _, spec := range specs {
		s, err := records.ReadFileWithout(spec, ignore...)
		if err != nil {
			return nil, subcommand.AsUsage(err)
		}
		for _, w := range s.Warnings {
			fmt.Fprintf(o.Stderr, "perfrun: %s: warning: %v\n", cmd, w)
		}
		if why, none := nothingMeasured(s); none {
			return nil, &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: fmt.Errorf("%s: nothing measured: every sample was set aside (%s)", s.File, why)}
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// nothingMeasured says whether every record of s was set aside, and why
// the first was: such a file has nothing any reader can show or judge.
func nothingMeasured(s *records.Set) (why string, none bool) {
	for _, c := range s.Cells() {
		for _, v := range c.Values {
			if len(v) > 0 {
				return "", false
			}
		}
		if why == "" {
			why = c.Why
		}
	}
	return why, true
}
