package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"

	"github.com/perfrun/perfrun/records/importers"
)

var cmdImport = &subcommand.Command{
	MaxArgs: 1, Name: "import", Args: "-format FORMAT [-o FILE] INPUT", Short: "read another tool's results as a results file",
	Long: `Import reads another benchmark tool's results and writes them as a results
file in the Go benchmark format — every sample the tool recorded, in its
units — so that compare, gate, report and history add take them as they
take perfrun's. "-" reads standard input.`,
}

func init() { cmdImport.Define = importFlags }

func importFlags(fs *flag.FlagSet) subcommand.RunFunc {
	var names []string
	for _, im := range importers.All {
		names = append(names, im.Name+": "+im.Doc)
	}
	format := fs.String("format", "", "the tool's format: "+strings.Join(names, "; "))
	out := fs.String("o", "", "the results file to write (default: standard output)")
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		if fs.NArg() != 1 {
			return subcommand.UsageError("want one input file (or - for standard input)")
		}
		im, err := importers.Lookup(*format)
		if err != nil {
			return subcommand.AsUsage(err)
		}
		if err := subcommand.AsUsage(regularfile.CheckOutputs(*out, "")); err != nil {
			return err
		}
		if err := regularfile.NotAnInput(*out, fs.Arg(0)); err != nil {
			return subcommand.AsUsage(err)
		}
		data, name, err := regularfile.ReadInput(fs.Arg(0))
		if err != nil {
			return subcommand.AsUsage(err)
		}
		set, err := im.Import(bytes.NewReader(data), name)
		if err != nil {
			return subcommand.AsUsage(err)
		}
		for _, w := range set.Warnings {
			fmt.Fprintf(o.Stderr, "perfrun: import: %v\n", w)
		}
		var buf bytes.Buffer
		if err := set.Write(&buf); err != nil {
			return err
		}
		if *out == "" {
			_, err := o.Stdout.Write(buf.Bytes())
			return err
		}
		if err := regularfile.Write(*out, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(o.Stderr, "perfrun: import: wrote %s (%d samples of %d benchmarks from %s)\n", *out, len(set.Records), len(set.Cells()), name)
		return nil
	}
}
