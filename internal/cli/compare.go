package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
)

var cmdCompare = &subcommand.Command{
	MaxArgs: -1, Name: "compare", Args: "OLD NEW", Short: "compare two results files, benchstat style, and rank implementations",
	Long: `Compare two results files the way benchstat does (median, 95% CI,
Mann-Whitney U at alpha 0.05, "~" when not significant), then say how many
times faster each implementation ran than the others, in each file.
A file may be given as label=path. Files of different setups (machine,
cores, corpus, Go version: the keys gate checks) are refused, as gate
refuses them, unless -ignore-config names the key.`,
}

func init() { cmdCompare.Define = compareFlags }

func compareFlags(fs *flag.FlagSet) subcommand.RunFunc {
	ignore := fs.String("ignore-config", "", "configuration `keys` (comma-separated) whose differences to accept: "+strings.Join(compare.MeaningKeys, ", "))
	units := fs.String("units", "gated", "units to show: gated (the time the gate judges, allocs/op, instructions/op), all, or a comma-separated list")
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		old, new, err := readPair("compare", fs.Args(), o)
		if err != nil {
			return err
		}
		warnings, err := compare.CheckConfig(old, new, splitList(*ignore))
		if err != nil {
			return subcommand.AsUsage(err)
		}
		for _, w := range warnings {
			fmt.Fprintf(o.Stderr, "perfrun: compare: %s\n", w)
		}
		rows, _ := compare.Compare(old, new)
		shown, hidden := shownUnits(rows, *units)
		compare.WriteCompare(o.Stdout, old, new, shown)
		if len(hidden) > 0 {
			fmt.Fprintf(o.Stdout, "%d more units (%s): -units all shows them\n\n", len(hidden), strings.Join(hidden, ", "))
		}
		for _, s := range []*records.Set{old, new} {
			compare.WriteSpeedups(o.Stdout, s.Label+": mean time/op ± std, hyperfine style", compare.Speedups(s, compare.DefaultThresholds.Metric))
		}
		return nil
	}
}

// readPair reads OLD and NEW, printing their warnings; they must share a
// benchmark.
func readPair(cmd string, args []string, o *subcommand.Streams) (old, new *records.Set, err error) {
	if len(args) != 2 {
		return nil, nil, subcommand.UsageError("want two results files: OLD NEW (or label=file)")
	}
	sets, err := readSets(cmd, args, o)
	if err != nil {
		return nil, nil, err
	}
	if _, err := compare.Shared(sets[0], sets[1]); err != nil {
		return nil, nil, subcommand.AsUsage(err)
	}
	return sets[0], sets[1], nil
}

// shownUnits keeps the rows of the units asked for ("gated": the gate's
// time unit and its exact units) and names the units left out.
func shownUnits(rows []compare.Row, units string) (shown []compare.Row, hidden []string) {
	want := func(u string) bool { return true }
	switch units {
	case "all":
	case "gated":
		gated := []string{compare.DefaultThresholds.Metric, records.AllocsPerOp, records.Instructions}
		want = func(u string) bool { return slices.Contains(gated, u) }
	default:
		list := splitList(units)
		for i, u := range list {
			list[i] = records.Tidy(u)
		}
		want = func(u string) bool { return slices.Contains(list, u) }
	}
	for _, r := range rows {
		if want(r.Unit) {
			shown = append(shown, r)
		} else if !slices.Contains(hidden, r.Unit) {
			hidden = append(hidden, r.Unit)
		}
	}
	return shown, hidden
}
