package cli

import (
	"io"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/publish"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// program is perfrun's commands, in help's order, and the hidden ones a
// perfrun runs in a child of its own.
var program subcommand.Program

func init() {
	program = subcommand.Program{
		Commands: []*subcommand.Command{cmdRun, cmdList, cmdPlot, cmdReport, cmdCompare, cmdGate, cmdRules, cmdAB, cmdBisect, cmdPredict, cmdExport, cmdImport, cmdCorpus, cmdBaselines, historycmd.New(cmdRun), cmdVersion, cmdHelp},
		Hidden:   []*subcommand.Command{cmdCellOps, cmdArm},
		// The user's to fix: a source ab cannot build, a baseline the
		// store refuses, a report folder with a file perfrun did not
		// write, a history without the series asked for.
		InputErrors: []error{ab.ErrBadSource, baselines.ErrInput, publish.ErrRefused, history.ErrNoSeries},
	}
}

// run is perfrun with its arguments; it returns the exit code.
func run(stdout, stderr io.Writer, args []string) int { return program.Run(stdout, stderr, args) }

// verdictError is the exit of a gate, the verdict's own code
// (compare.Verdict.Exit: ExitRegression or ExitInconclusive): nil for
// PASS and IMPROVED.
func verdictError(v compare.Verdict) error {
	if code := v.Exit(); code != subcommand.ExitOK {
		return &subcommand.ExitError{Code: code}
	}
	return nil
}
