package main

import (
	"context"

	"github.com/perfrun/perfrun/harness"
)

var cmdExport = &command{
	name: "export", args: "[flags] FILE", short: "convert saved results to CSV or JSON without re-running",
	long: `Export reads a results file (perfrun's, or any go test -bench output) and
writes one row per cell and unit with its statistics over rounds, as CSV or
JSON — what "run -format" prints, for results already saved. Statistics the
rounds cannot give are empty (CSV) or null (JSON), with a note saying why.`,
}

func init() { cmdExport.run = runExport }

func runExport(_ context.Context, o *streams, args []string) error {
	fs := cmdExport.flags(o)
	format := fs.String("format", "csv", "csv or json")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one results file")
	}
	printer, ok := printers[*format]
	if !ok || (*format != "csv" && *format != "json") {
		return usageError("unknown format %q (have csv, json)", *format)
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
