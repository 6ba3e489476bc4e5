//go:build !perfrun_cellops && !perfrun_locks

package perfrun

import (
	"os"

	"github.com/perfrun/perfrun/internal/cli"
)

// Main runs perfrun's command line on os.Args with the built-in
// implementations and impls after them, and exits with its exit code (0
// success or PASS, 1 REGRESSION, 2 usage, 3 INCONCLUSIVE, 4 failure). It
// does not return.
func Main(impls ...Impl) {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr, impls))
}
