//go:build perfrun_cellops || perfrun_locks

package perfrun

import (
	"os"

	"github.com/perfrun/perfrun/internal/cellops"
)

// Main, in a build made only to be counted (the tags of cellops.Tag or
// of a lock profile), runs the one subcommand a count runs, cell-ops, so
// that such a build compiles no more than a count needs.
func Main(impls ...Impl) {
	os.Exit(cellops.Main(os.Args[1:], os.Stdout, os.Stderr, impls))
}
