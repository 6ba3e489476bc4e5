package cli

import (
	"context"
	"flag"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/report"
)

var cmdExport = &command{
	maxArgs: -1, name: "export", args: "[flags] FILE | -format processes FILE...", short: "print saved results as tables, CSV, JSON or JMH without re-running",
	long: `Export reads a results file (perfrun's, or any go test -bench output) and
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
IMPL, both taken within a process before the median.`,
}

func init() { cmdExport.define = exportFlags }

func exportFlags(fs *flag.FlagSet) runFunc {
	format := fs.String("format", "csv", "table, csv, json, jmh, or processes (several files, one process each)")
	units := fs.String("units", "", "processes: the units to show, comma-separated (default: ns/call or ns/add, ops/s, B/object)")
	vs := fs.String("vs", "", "processes: also divide every design by this implementation, process by process")
	return func(_ context.Context, o *streams, args []string) error {
		if *format == "processes" {
			if fs.NArg() == 0 {
				return usageError("-format processes: want the results files, one per process")
			}
			sets, err := readSets("export", fs.Args(), o)
			if err != nil {
				return err
			}
			if err := report.WriteProcesses(o.stdout, sets, report.ProcessOptions{Units: splitList(*units), Vs: *vs}); err != nil {
				return asUsage(err)
			}
			return nil
		}
		if *units != "" || *vs != "" {
			return usageError("-units and -vs are for -format processes")
		}
		if fs.NArg() != 1 {
			return usageError("want one results file")
		}
		printer, ok := printers[*format]
		if !ok || *format == "benchfmt" {
			return usageError("unknown format %q (have table, csv, json, jmh, processes)", *format)
		}
		sets, err := readSets("export", fs.Args(), o)
		if err != nil {
			return err
		}
		cores := sets[0].Cores()
		if cores == 0 {
			cores = harness.Cores()
		}
		return printer(o.stdout, sets[0], cores)
	}
}
