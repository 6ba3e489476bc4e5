package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/baselines"
)

var cmdGate = &subcommand.Command{
	Common:  []string{"threshold", "json", "baseline", "allow-missing"},
	MaxArgs: -1, Name: "gate", Args: "[flags] OLD NEW", Short: "decide PASS / IMPROVED / REGRESSION / INCONCLUSIVE between two results files",
	Long: `Gate decides whether NEW regressed against OLD, per cell and overall:
PASS, REGRESSION, IMPROVED or INCONCLUSIVE at -threshold. Exit 0 PASS or
IMPROVED, 1 REGRESSION or MISSING, 3 INCONCLUSIVE, 2 usage, 4 the tool
failed. Example: perfrun gate old.txt new.txt

NEW may be a named baseline's instead: -baseline NAME NEW. Per cell it estimates
the change of time/op as the difference of 20% trimmed means of log values
(Yuen's t; with fewer than 10 rounds a side, plain means: Welch's t), and
promises: PASS — the upper bound of the
slowdown is below -threshold, so no regression that large was missed;
REGRESSION — its lower bound is above it; IMPROVED — the speedup's bound is
beyond it; INCONCLUSIVE — the interval spans the threshold or the rounds
are too few (each side needs 3), with how many rounds would decide. Holm
controls REGRESSION and IMPROVED across the gated cells; the overall PASS
needs every cell's own PASS, each tested at -alpha. allocs/op and
instructions/op gate on plain limits; cells with more threads than cores
are not gated; cells or units missing from NEW are MISSING, which fails
(exit 1) unless -allow-missing;
files of different setups (machine, cpu, cores, Go, corpus) are refused
unless -ignore-config names the key. Exit 0 PASS/IMPROVED, 1 REGRESSION or MISSING,
3 INCONCLUSIVE, 2 usage, 4 the tool failed. Two files hold two processes,
minutes apart: the speed and floor probes after every window and the
control cells are the machine's yardsticks, and where one moved more
than half the threshold between the runs (the control by its whole
interval; the floor probe, which wanders that much by itself between
processes, by more than the threshold), every cell at that thread count
is INCONCLUSIVE, naming the machine; an undecided cell says what the machine
did in its windows. A process's own luck (where its code and data
landed) no file shows: for two revisions on one machine prefer
"perfrun ab", and for a named baseline "perfrun ab -baseline NAME", which
measures the build that saved it again, beside this one.`,
}

func init() { cmdGate.Define = gateFlags }

func gateFlags(fs *flag.FlagSet) subcommand.RunFunc {
	th := thresholdFlags(fs)
	flagvalue.NumberVar(fs, &th.AllocsDelta, "allocs-delta", th.AllocsDelta, "allocs/op increase that fails")
	flagvalue.FractionVar(fs, &th.InstructionsRatio, "instructions-ratio", th.InstructionsRatio, "instructions/op increase that fails, as a fraction")
	fs.BoolVar(&th.AllowMissing, "allow-missing", false, "do not fail cells or units missing from NEW")
	ignore := fs.String("ignore-config", "", "configuration `keys` (comma-separated) whose differences to accept: "+strings.Join(compare.MeaningKeys, ", "))
	jsonOut := fs.String("json", "", "also write the verdict as JSON to this file")
	verbose := fs.Bool("v", false, "print every verdict with its whole reason, not the changed ones in short")
	baseline := fs.String("baseline", "", "gate NEW against the baseline saved under this `name` (run -save-baseline)")
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		if err := checkThresholds(th); err != nil {
			return err
		}
		if err := subcommand.AsUsage(regularfile.CheckOutputs(*jsonOut, "")); err != nil {
			return err
		}
		if err := regularfile.NotAnInput(*jsonOut, fs.Args()...); err != nil {
			return subcommand.AsUsage(err)
		}
		if !(th.AllocsDelta >= 0) || !(th.InstructionsRatio >= 0) || math.IsInf(th.AllocsDelta+th.InstructionsRatio, 0) {
			return subcommand.UsageError("-allocs-delta and -instructions-ratio must be finite and >= 0")
		}
		th.IgnoreConfig = splitList(*ignore)
		files := fs.Args()
		if *baseline != "" {
			if len(files) != 1 {
				return subcommand.UsageError("with -baseline, want one results file: NEW")
			}
			path, err := baselines.Path(*baseline)
			if err != nil {
				return err
			}
			files = []string{*baseline + "=" + path, files[0]}
		}
		old, new, err := readPair("gate", files, o)
		if err != nil {
			return err
		}
		// A CI job that gates a run against itself (a baseline never
		// replaced, one path given twice) would PASS every pull request:
		// refused, so the job fails where it is misconfigured.
		if compare.OneMeasurement(old, new) {
			return subcommand.UsageError("%s and %s hold one measurement, the same values in every cell: a gate needs two runs", old.File, new.File)
		}
		rep, err := compare.Gate(old, new, *th)
		if err != nil {
			return subcommand.AsUsage(err)
		}
		verdict := finishGate(rep, *jsonOut, *verbose, o)
		if *baseline != "" && rep.Verdict == compare.Inconclusive && baselines.KeptBuild(*baseline) != "" {
			fmt.Fprintf(o.Stderr, "perfrun: gate: the build that measured %s is kept with it: perfrun ab -baseline %s measures it again beside this perfrun, window by window, and decides in minutes where two files minutes apart cannot\n", *baseline, *baseline)
		}
		return verdict
	}
}

// thresholdFlags defines the flags gate and ab share, over the defaults.
func thresholdFlags(fs *flag.FlagSet) *compare.Thresholds {
	th := compare.DefaultThresholds
	flagvalue.FractionVar(fs, &th.MinEffect, "threshold", th.MinEffect, "minimum effect as a fraction")
	flagvalue.FractionVar(fs, &th.Alpha, "alpha", th.Alpha, "error rate of each kind of claim (REGRESSION, IMPROVED: across the cells)")
	return &th
}

func checkThresholds(th *compare.Thresholds) error {
	if !(th.MinEffect >= 0 && th.MinEffect < 10) || !(th.Alpha > 0 && th.Alpha < 1) {
		return subcommand.UsageError("-threshold must be at least 0%% and below 1000%%, -alpha above 0%% and below 100%% (write 5%% or 0.05)")
	}
	// Reports print a threshold to 0.01%: a smaller one would read as 0%,
	// and no measurement resolves it.
	if th.MinEffect > 0 && th.MinEffect < 1e-4 {
		return subcommand.UsageError("-threshold %g%% is below 0.01%%: no measurement resolves it (use 0 to gate on any change)", 100*th.MinEffect)
	}
	return nil
}

// finishGate prints the verdict, writes it as JSON if asked, and returns
// the verdict's exit.
// The JSON file is written first: a reader of the text that goes away
// (gate … | head -1) must not cost CI its verdict file.
//
// The verdict is printed first and the JSON written wherever there is
// room: a file that cannot be written fails the command (exit 4 on a
// PASS, the verdict's own code otherwise), never the verdict's other
// outputs.
func finishGate(rep *compare.Report, jsonOut string, verbose bool, o *subcommand.Streams) error {
	if verbose {
		rep.WriteFull(o.Stdout)
	} else {
		rep.WriteText(o.Stdout)
	}
	verdict := verdictError(rep.Verdict)
	if jsonOut != "" {
		var buf bytes.Buffer
		err := rep.WriteJSON(&buf)
		if err == nil {
			err = regularfile.Write(jsonOut, buf.Bytes())
		}
		if err != nil {
			return lostOutput(verdict, fmt.Errorf("writing %s: %w", jsonOut, err), o)
		}
	}
	return verdict
}

// lostOutput is a command's end when its verdict stands but one of its
// outputs could not be written: said on stderr, and no success.
func lostOutput(verdict, err error, o *subcommand.Streams) error {
	if verdict == nil {
		return err
	}
	fmt.Fprintf(o.Stderr, "perfrun: %v\n", err)
	return verdict
}
