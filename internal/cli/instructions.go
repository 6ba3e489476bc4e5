package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// instructionBudget is how long the counted operations would take natively
// (callgrind runs them some fifty times slower). Counting only inside
// countedOps makes the count exact for a given process; counting whole
// rotations of leaves keeps every leaf equally weighted. Measured at
// certs=32, five processes each: sortoninsert 1271.22 instructions/op every
// time, sorted 1415.03–1415.11, rcu 294.065–294.069, hashmap
// 313.221–313.238 (within 0.006%; before the models hashed with a fixed
// function, hashmap's counts spread over 781–786 and rcu's over 810–825).
const instructionBudget = 20 * time.Millisecond

// cellOpsArgs are the corpus flags a cell-ops child needs to rebuild the
// very same corpus.
func cellOpsArgs(corpusPath string, strict bool, seed uint64) []string {
	args := []string{"-seed", strconv.FormatUint(seed, 10)}
	if corpusPath != "" {
		args = append(args, "-corpus", corpusPath, "-strict="+strconv.FormatBool(strict))
	}
	return args
}

// countInstructions adds instructions/op to every sample of each
// single-threaded cell, each process's count to its own round.
func countInstructions(ctx context.Context, res *harness.Outcome, periods map[string]int, corpusArgs []string, stderr io.Writer, quiet bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	for _, c := range res.Cells {
		if c.Threads != 1 || c.Impl.Name == "" { // a floor measures no store
			continue
		}
		ns := records.Summarize(res.Values(c, records.NsPerOp)).Median
		n := max(1, int(float64(instructionBudget.Nanoseconds())/max(ns, 1)))
		if p := periods[c.Name()]; p > 1 {
			n = (n + p - 1) / p * p // whole rotations
		}
		if !quiet {
			fmt.Fprintf(stderr, "perfrun: counting instructions of %s (%d ops under callgrind)\n", c.Name(), n)
		}
		command := func(ops int) []string {
			args := append([]string{exe, "cell-ops", "-impl", c.Impl.Name, "-workload", c.Workload.Name, "-ops", strconv.Itoa(ops)}, corpusArgs...)
			for _, kv := range c.Params {
				args = append(args, "-param", kv.Key+"="+kv.Value)
			}
			return args
		}
		per, err := harness.Instructions(ctx, command, countedFunction, n)
		if err != nil {
			return fmt.Errorf("cell %s: %v", c.Name(), err)
		}
		// One process's count per round's record: the records then hold
		// the per-process sample a gate tests (rounds beyond the processes
		// reuse them in turn).
		k := 0
		for i := range res.Samples {
			if res.Samples[i].Cell.Name() == c.Name() {
				res.Samples[i].Metrics = append(res.Samples[i].Metrics, workloads.Metric{Value: per[k%len(per)], Unit: records.Instructions})
				k++
			}
		}
	}
	return nil
}

var cmdCellOps = &command{
	name: "cell-ops", args: "[flags]", short: "run N operations of one cell (for callgrind)",
	long: `Cell-ops performs exactly -ops operations of one cell on one thread after
its setup, and nothing else: what "run -instructions" counts under
callgrind. Not listed in help.`,
}

func init() { cmdCellOps.run = runCellOps }

func runCellOps(ctx context.Context, o *streams, args []string) error {
	fs := cmdCellOps.flags(o)
	impl := fs.String("impl", "", "implementation")
	workload := fs.String("workload", "", "workload")
	ops := fs.Int("ops", 1000, "operations")
	var params listFlag
	fs.Var(&params, "param", "parameter name=value")
	seed := fs.Uint64("seed", 1, "corpus seed")
	corpusPath := fs.String("corpus", "", "corpus path")
	strict := fs.Bool("strict", false, "strict corpus loading")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	cells, err := planCells(*impl, *workload, "1", params)
	if err != nil || len(cells) != 1 || *ops < 1 {
		return usageError("want exactly one cell and -ops > 0 (%v)", err)
	}
	provider, _, err := corpusProvider(ctx, *corpusPath, *strict, *seed, io.Discard)
	if err != nil {
		return err
	}
	c := cells[0]
	inst, err := c.Workload.Setup(workloads.Env{Impl: c.Impl, Params: c.Params, Corpus: provider, Seed: *seed})
	if err != nil {
		return err
	}
	return countedOps(inst.Worker(0), *ops)
}

// countedFunction is the symbol callgrind collects inside (--toggle-collect):
// only the operations count, not setup or the runtime's other threads.
const countedFunction = "github.com/perfrun/perfrun/internal/cli.countedOps"

// countedOps runs the operations that are counted.
//
//go:noinline
func countedOps(op workloads.Op, n int) error { return op(n) }
