package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/workloads"
)

func cmdList(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("list", "", "List the implementations and the workloads with their parameters.", stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Implementations:")
	for _, im := range impls.All {
		fmt.Fprintf(tw, "  %s\t%s\n", im.Name, im.Description)
	}
	fmt.Fprintln(tw, "\nWorkloads:")
	for _, w := range workloads.All {
		if w.Hidden {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\n", w.Name, w.Description)
		for _, p := range w.Params {
			fmt.Fprintf(tw, "    %s=%s\t%s\n", p.Name, p.Default, p.Help)
		}
	}
	tw.Flush()
	return exitOK
}
