// Package cellops is the program a count runs: exactly N operations of
// one cell on one thread, after its setup and one uncounted rotation, and
// nothing else, so that callgrind's instructions and a lock profile are
// the operations' own. perfrun's command line runs it as "cell-ops"; a
// build with the tag Tag is this program alone (perfrun.Main runs Main),
// so the builds made only to be counted compile what a count runs and
// not the plots, the reports or the history's databases. The side that
// starts it is here too: a run's cells counted in processes of a
// countable build (CountInstructions, CountLocks), on the command line
// Args and the cell give.
//
// Its promise: none beyond perfrun's own use (internal).
package cellops

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Tag is the build tag that makes a program of perfrun's command line
// (perfrun.Main) this program alone, as a build for lock profiles
// (locks.Tag) is: the build made to count instructions carries it.
const Tag = "perfrun_cellops"

// Name is the subcommand that runs the operations.
const Name = "cell-ops"

// Flags are cell-ops' command line: the one cell, its corpus, and what
// to do with its operations.
type Flags struct {
	impl, workload, corpusPath string
	ops                        int
	params                     []string
	seed                       uint64
	strict, profile            bool
}

// Define defines cell-ops' flags on fs.
func Define(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.impl, "impl", "", "implementation")
	fs.StringVar(&f.workload, "workload", "", "workload")
	fs.IntVar(&f.ops, "ops", 1000, "operations")
	fs.Func("param", "parameter name=value", func(v string) error { f.params = append(f.params, v); return nil })
	fs.Uint64Var(&f.seed, "seed", 1, "corpus seed")
	fs.StringVar(&f.corpusPath, "corpus", "", "corpus path")
	fs.BoolVar(&f.strict, "strict", false, "strict corpus loading")
	fs.BoolVar(&f.profile, "locks", false, "print the lock profile of the operations (a binary built for lock profiles, under callgrind)")
	return f
}

// A UsageError is a command line cell-ops cannot run: perfrun's exit 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usage(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Run sets the cell up, runs one whole rotation uncounted (as the timed
// windows have a warm-up: a real store parses each leaf on its first
// lookup, which is setup, not a lookup's cost), then the counted
// operations: under callgrind's count, or with the lock profile printed
// on stdout.
func (f *Flags) Run(ctx context.Context, stdout io.Writer) error {
	if f.impl == "" || f.workload == "" {
		return usage("-impl and -workload name the one cell cell-ops runs: give both")
	}
	if f.ops < 1 {
		return usage("-ops %d: want at least 1", f.ops)
	}
	c, err := f.cell()
	if err != nil {
		return err
	}
	provider := func(cas int) (*corpus.Corpus, error) { return corpus.ForCells(ctx, f.seed, cas, nil) }
	if f.corpusPath != "" {
		loaded, _, err := corpus.LoadContext(ctx, f.corpusPath, f.strict, nil)
		if err != nil && ctx.Err() == nil {
			return usage("%v", err) // what the corpus holds is the user's to fix
		} else if err != nil {
			return err
		}
		provider = func(int) (*corpus.Corpus, error) { return loaded, nil }
	}
	inst, err := c.Workload.Setup(workloads.Env{Impl: c.Impl, Params: c.Params, Corpus: provider, Seed: f.seed})
	if err != nil {
		return err
	}
	op := inst.Worker(0)
	if err := op(max(inst.Period, 1)); err != nil {
		return err
	}
	if f.profile {
		return locks.Run(op, f.ops, stdout)
	}
	return callgrind.CountOps(op, f.ops)
}

// cell is the one cell the flags name, at one thread.
func (f *Flags) cell() (harness.Cell, error) {
	im, err := impls.Lookup(f.impl)
	if err != nil {
		return harness.Cell{}, usage("%v", err)
	}
	w, err := workloads.Lookup(f.workload)
	if err != nil {
		return harness.Cell{}, usage("%v", err)
	}
	sweep, err := harness.ParseSweep(f.params)
	if err != nil {
		return harness.Cell{}, usage("%v", err)
	}
	cells, err := harness.Plan([]store.Impl{im}, []workloads.Workload{w}, sweep, []int{1})
	switch {
	case err != nil:
		return harness.Cell{}, usage("%v", err)
	case len(cells) != 1:
		return harness.Cell{}, usage("%d cells: cell-ops runs one (one -impl, one -workload, one value a -param)", len(cells))
	}
	return cells[0], nil
}

// Main is the program a build with Tag is: "cell-ops" and its flags, with
// the built-in implementations and extra after them. It returns the exit
// code: 0, 2 for a command line it cannot run, 4 for a failure.
func Main(args []string, stdout, stderr io.Writer, extra []store.Impl) int {
	if err := impls.Register(extra...); err != nil {
		fmt.Fprintf(stderr, "perfrun: %v\n", err)
		return 2
	}
	if len(args) == 0 || args[0] != Name {
		fmt.Fprintf(stderr, "perfrun: this perfrun was built to be counted (-tags %s): it runs %s alone; build it without the tag for the rest\n", Tag, Name)
		return 2
	}
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := Define(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := f.Run(ctx, stdout)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "perfrun: %s: %v\n", Name, err)
	if u := (*UsageError)(nil); errors.As(err, &u) {
		return 2
	}
	return 4
}
