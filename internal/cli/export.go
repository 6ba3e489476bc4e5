package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

var cmdExport = &subcommand.Command{
	Common:  []string{"format", "vs"},
	MaxArgs: -1, Name: "export", Args: "[flags] FILE | -format processes FILE...", Short: "print saved results as tables, CSV, JSON or JMH without re-running",
	Long: `Export reads a results file (perfrun's, or any go test -bench output) and
prints it as "run -format" would have: the per-thread tables (table), one row per
cell and unit with its statistics over rounds (csv, json), or JMH-style
throughput (jmh). Statistics the rounds cannot give are empty (CSV) or null
(JSON), with a note saying why.

-format processes reads several files of the same suite, each one process,
and judges them as a machine that drifts between processes must be judged:
per cell and unit, each process's median over its kept rounds, the median
of those with every process's beside it, and the rounds' spread within a
process; then each design's scaling from one thread (the control's is the
parallelism the machine delivered) and, with -vs IMPL, each design over
IMPL, both taken within a process before the median.

-format published -sides KEY=BEFORE,AFTER prints each benchmark's change
from KEY=BEFORE to KEY=AFTER in the form its discussion printed it:
hyperfine's "R ± E times faster" (a mean with the runs' standard deviation;
perfrun's own rounds are read so too), JMH's scores with their 99.9% errors
and whether they are apart, callgrind's counts as a ratio. A file of
published numbers (results/published/) says what its ± is on a
published-error: line.`,
}

func init() { cmdExport.Define = exportFlags }

func exportFlags(fs *flag.FlagSet) subcommand.RunFunc {
	format := fs.String("format", "csv", "table, csv, json, jmh, processes (several files, one process each), or published (a change in its discussion's form)")
	sides := fs.String("sides", "", "published: KEY=BEFORE,AFTER, the name key whose values are the two sides (e.g. impl=sorted,hashmap)")
	units := fs.String("units", "", "processes: the units to show, comma-separated (default: ns/call or ns/add, ops/s, B/object)")
	vs := fs.String("vs", "", "processes: also divide every design by this implementation, process by process")
	ignore := fs.String("ignore-config", "", "processes: configuration `keys` (comma-separated) whose differences between the files to accept: "+strings.Join(compare.MeaningKeys, ", "))
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		if *format == "processes" {
			if fs.NArg() == 0 {
				return subcommand.UsageError("-format processes: want the results files, one per process")
			}
			sets, err := readSets("export", fs.Args(), o)
			if err != nil {
				return err
			}
			sets = distinctSets("export", sets, o)
			if err := report.WriteProcesses(o.Stdout, sets, report.ProcessOptions{Units: splitList(*units), Vs: *vs, Ignore: splitList(*ignore)}); err != nil {
				return subcommand.AsUsage(err)
			}
			return nil
		}
		if *format == "published" {
			return exportPublished(o, fs.Args(), *sides)
		}
		if *units != "" || *vs != "" || *ignore != "" || *sides != "" {
			return subcommand.UsageError("-units, -vs and -ignore-config are for -format processes, -sides for -format published")
		}
		if fs.NArg() != 1 {
			return subcommand.UsageError("want one results file")
		}
		printer, ok := sweep.Printers[*format]
		if !ok || *format == "benchfmt" {
			return subcommand.UsageError("unknown format %q (have table, csv, json, jmh, processes)", *format)
		}
		sets, err := readSets("export", fs.Args(), o)
		if err != nil {
			return err
		}
		cores := sets[0].Cores()
		if cores == 0 {
			cores = harness.Cores()
		}
		return printer(o.Stdout, sets[0], cores)
	}
}

// exportPublished prints one file's changes from one side to the other in
// their discussions' own forms.
func exportPublished(o *subcommand.Streams, files []string, sides string) error {
	key, vals, ok := strings.Cut(sides, "=")
	before, after, ok2 := strings.Cut(vals, ",")
	if !ok || !ok2 || key == "" || before == "" || after == "" {
		return subcommand.UsageError("-format published wants -sides KEY=BEFORE,AFTER, such as -sides impl=sorted,hashmap")
	}
	if len(files) != 1 {
		return subcommand.UsageError("-format published: want one results file")
	}
	sets, err := readSets("export", files, o)
	if err != nil {
		return err
	}
	return subcommand.AsUsage(report.WritePublished(o.Stdout, sets[0], key, before, after))
}

// distinctSets is sets without a file given twice or a copy of one given
// before (the same bytes): a process is counted once, whatever its names.
func distinctSets(cmd string, sets []*records.Set, o *subcommand.Streams) []*records.Set {
	seen := make(map[string]string)
	var out []*records.Set
	for _, s := range sets {
		if first, ok := seen[s.Digest]; ok {
			fmt.Fprintf(o.Stderr, "perfrun: %s: warning: %s holds the same bytes as %s: one process, counted once\n", cmd, s.File, first)
			continue
		}
		seen[s.Digest] = s.File
		out = append(out, s)
	}
	return out
}
