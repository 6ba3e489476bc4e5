// Package cli is perfrun's command line: one file per command, the flags
// and the wiring between the harness, the comparisons and the reports.
// perfrun.Main is its public entry point.
package cli

import (
	"fmt"
	"io"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/store"
)

// Main runs perfrun with args (without the program name) and returns the
// exit code. Its implementations are the built-in ones and extra, which
// come after them in every table.
func Main(args []string, stdout, stderr io.Writer, extra []store.Impl) int {
	if err := impls.Register(extra...); err != nil {
		fmt.Fprintf(stderr, "perfrun: %v\n", err)
		return subcommand.ExitUsage
	}
	return run(stdout, stderr, args)
}
