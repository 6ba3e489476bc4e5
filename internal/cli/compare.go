package cli

import (
	"context"
	"flag"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/records"
)

var cmdCompare = &command{
	maxArgs: -1, name: "compare", args: "OLD NEW", short: "compare two results files, benchstat style, and rank implementations",
	long: `Compare two results files the way benchstat does (median, 95% CI,
Mann-Whitney U at alpha 0.05, "~" when not significant), then say how many
times faster each implementation ran than the others, in each file.
A file may be given as label=path.`,
}

func init() { cmdCompare.define = compareFlags }

func compareFlags(fs *flag.FlagSet) runFunc {
	return func(_ context.Context, o *streams, args []string) error {
		old, new, err := readPair("compare", fs.Args(), o)
		if err != nil {
			return err
		}
		rows, _ := compare.Compare(old, new)
		compare.WriteCompare(o.stdout, old, new, rows)
		for _, s := range []*records.Set{old, new} {
			compare.WriteSpeedups(o.stdout, s.Label+": mean time/op ± std, hyperfine style", compare.Speedups(s, compare.DefaultThresholds.Metric))
		}
		return nil
	}
}

// readPair reads OLD and NEW, printing their warnings; they must share a
// benchmark.
func readPair(cmd string, args []string, o *streams) (old, new *records.Set, err error) {
	if len(args) != 2 {
		return nil, nil, usageError("want two results files: OLD NEW (or label=file)")
	}
	sets, err := readSets(cmd, args, o)
	if err != nil {
		return nil, nil, err
	}
	if _, err := compare.Shared(sets[0], sets[1]); err != nil {
		return nil, nil, asUsage(err)
	}
	return sets[0], sets[1], nil
}
