package cli

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/workloads"
)

var cmdList = &subcommand.Command{
	MaxArgs: 0, Name: "list", Args: "", Short: "list implementations, workloads and their parameters",
	Long: "List prints the implementations and the workloads with their parameters and defaults.",
}

func init() { cmdList.Define = listFlags }

func listFlags(*flag.FlagSet) subcommand.RunFunc {
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		tw := tabwriter.NewWriter(o.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "Implementations:")
		for _, im := range impls.All() {
			desc := im.Description
			if im.Library != "" {
				desc += ": " + im.Library
			}
			fmt.Fprintf(tw, "  %s\t%s\n", im.Name, desc)
		}
		for _, m := range impls.Missing {
			fmt.Fprintf(tw, "  (%s)\n", m)
		}
		for _, hidden := range []bool{false, true} {
			if hidden {
				fmt.Fprintln(tw, "\nChecks of the harness itself (never in the default suite):")
			} else {
				fmt.Fprintln(tw, "\nWorkloads:")
			}
			for _, w := range workloads.All {
				if w.Hidden != hidden {
					continue
				}
				fmt.Fprintf(tw, "  %s\t%s\n", w.Name, w.Description)
				for _, p := range w.Params {
					help := p.Help
					if p.Name == "cost" {
						// The one parameter whose default differs by command.
						help += fmt.Sprintf(" (run measures at cost=%s unless -param cost says otherwise; ab, arm and bisect at %s)", workloads.CostOpenSSL, p.Default)
					}
					fmt.Fprintf(tw, "    %s=%s\t%s\n", p.Name, p.Default, help)
				}
			}
		}
		return tw.Flush()
	}
}
