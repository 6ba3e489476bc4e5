package cli

import (
	"context"
	"flag"

	"github.com/perfrun/perfrun/harness"
)

var cmdExport = &command{
	maxArgs: 1, name: "export", args: "[flags] FILE", short: "print saved results as tables, CSV, JSON or JMH without re-running",
	long: `Export reads a results file (perfrun's, or any go test -bench output) and
prints it as "run -format" would have: the per-thread tables (table), one row per
cell and unit with its statistics over rounds (csv, json), or JMH-style
throughput (jmh). Statistics the rounds cannot give are empty (CSV) or null
(JSON), with a note saying why.`,
}

func init() { cmdExport.define = exportFlags }

func exportFlags(fs *flag.FlagSet) runFunc {
	format := fs.String("format", "csv", "table, csv, json or jmh")
	return func(_ context.Context, o *streams, args []string) error {
		if fs.NArg() != 1 {
			return usageError("want one results file")
		}
		printer, ok := printers[*format]
		if !ok || *format == "benchfmt" {
			return usageError("unknown format %q (have table, csv, json, jmh)", *format)
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
