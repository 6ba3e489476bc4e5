package main

import (
	"bytes"
	"context"
	"flag"

	"github.com/perfrun/perfrun/harness/compare"
)

var cmdGate = &command{
	name: "gate", args: "[flags] OLD NEW", short: "decide PASS / IMPROVED / REGRESSION / INCONCLUSIVE between two results files",
	long: `Gate decides whether NEW regressed against OLD: PASS, IMPROVED, REGRESSION
or INCONCLUSIVE, per cell and overall. Mann-Whitney U per cell, Holm
correction across the gated cells, a minimum effect, plain thresholds for
allocs/op and instructions/op; cells with more threads than cores are not
gated. Exit 0 PASS/IMPROVED, 1 REGRESSION, 3 INCONCLUSIVE, 2 usage, 4 the
tool failed. For two revisions on one machine prefer "perfrun ab", which
interleaves them and measures the noise floor.`,
}

func init() { cmdGate.run = runGate }

func runGate(_ context.Context, o *streams, args []string) error {
	fs := cmdGate.flags(o)
	th := thresholdFlags(fs)
	fs.Float64Var(&th.AllocsDelta, "allocs-delta", th.AllocsDelta, "allocs/op increase that fails")
	fs.Float64Var(&th.InstructionsRatio, "instructions-ratio", th.InstructionsRatio, "instructions/op increase that fails, as a fraction")
	fs.BoolVar(&th.AllowMissing, "allow-missing", false, "do not fail benchmarks missing from NEW")
	jsonOut := fs.String("json", "", "also write the verdict as JSON to this file")
	if err := parse(fs, args, -1); err != nil {
		return err
	}
	if err := checkThresholds(th); err != nil {
		return err
	}
	old, new, err := readPair("gate", fs.Args(), o)
	if err != nil {
		return err
	}
	rep, err := compare.Gate(old, new, *th)
	if err != nil {
		return asUsage(err)
	}
	return finishGate(rep, *jsonOut, o)
}

// thresholdFlags defines the flags gate and ab share, over the defaults.
func thresholdFlags(fs *flag.FlagSet) *compare.Thresholds {
	th := compare.DefaultThresholds
	fs.Float64Var(&th.MinEffect, "threshold", th.MinEffect, "minimum effect as a fraction (0.05 = 5%)")
	fs.Float64Var(&th.Alpha, "alpha", th.Alpha, "family-wise false-alarm rate")
	return &th
}

func checkThresholds(th *compare.Thresholds) error {
	if !(th.MinEffect >= 0) || !(th.Alpha > 0 && th.Alpha < 1) {
		return usageError("-threshold must be >= 0 and -alpha in (0, 1)")
	}
	return nil
}

// finishGate prints the verdict, writes it as JSON if asked, and returns
// the verdict's exit.
func finishGate(rep *compare.Report, jsonOut string, o *streams) error {
	rep.WriteText(o.stdout)
	if jsonOut != "" {
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			return err
		}
		if err := writeFile(jsonOut, buf.Bytes()); err != nil {
			return err
		}
	}
	return verdictError(rep.Verdict)
}
