package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

var collected = regexp.MustCompile(`Collected : (\d+)`)

// Processes is how many processes count the instructions of a cell: a gate
// needs at least five a side to treat the counts as a sample.
const Processes = 5

// Instructions counts the instructions one operation of a cell executes,
// once in each of Processes processes: it runs command (a perfrun that
// performs n operations of the cell, one thread, after its untimed setup)
// under valgrind's callgrind with GOMAXPROCS=1 and GOGC=off, collecting
// only inside CountedOps, so setup never enters the count.
// The counts are returned one per process: a design that hashes with a
// per-process seed runs different code in each, and a gate must see that
// spread to test the counts as a sample rather than trust one (the
// built-in designs agree within 0.006%: results/notes.md). Asynchronous preemption is off:
// its SIGURG signals trip an assertion in callgrind's signal handling
// (seen here in 1 of 4 runs) and add instructions that depend on wall
// time.
func Instructions(ctx context.Context, command func(ops int) []string, n int) ([]float64, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return nil, fmt.Errorf("valgrind is not installed (apt-get install valgrind)")
	}
	var per []float64
	for range Processes {
		args := append([]string{"--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=" + countedSymbol()}, command(n)...)
		var stderr bytes.Buffer
		var err error
		// A Go program under valgrind now and then dies in the runtime
		// (exit 2, nothing counted: seen in the test suite on a loaded
		// machine, never alone); such a process is run once more, and a
		// second failure is reported.
		for try := 0; try < 2; try++ {
			cmd := exec.CommandContext(ctx, "valgrind", args...)
			cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1")
			stderr.Reset()
			cmd.Stderr = &stderr
			if err = cmd.Run(); err == nil || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("valgrind: %v: %s", err, lastLine(stderr.Bytes()))
		}
		m := collected.FindSubmatch(stderr.Bytes())
		if m == nil {
			return nil, fmt.Errorf("valgrind printed no instruction count")
		}
		c, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			return nil, err
		}
		per = append(per, c/float64(n))
	}
	return per, nil
}

func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}

// CountedOps runs n operations of op: the only code callgrind counts
// (--toggle-collect), so neither setup nor the runtime's other threads
// enter a count. A perfrun that performs the operations Instructions asks
// for must run them through it.
//
//go:noinline
func CountedOps(op workloads.Op, n int) error { return op(n) }

// countedSymbol is CountedOps's symbol, as callgrind names it.
func countedSymbol() string {
	return runtime.FuncForPC(reflect.ValueOf(CountedOps).Pointer()).Name()
}

// InstructionBudget is how long the counted operations of a cell would
// take natively (callgrind runs them some fifty times slower). Counting
// whole rotations of leaves keeps every leaf equally weighted.
const InstructionBudget = 20 * time.Millisecond

// CountInstructions adds instructions/op to every sample of each
// single-threaded store cell, each process's count to its own round.
// command is the perfrun that performs ops operations of a cell (the CLI's
// cell-ops); progress, if set, is told before each cell is counted.
func (r *Outcome) CountInstructions(ctx context.Context, command func(c Cell, ops int) []string, progress func(c Cell, ops int)) error {
	for _, c := range r.Cells {
		if c.Threads != 1 || c.Impl.Name == "" || c.Command != nil { // a floor measures no store; a command is not perfrun's to run under valgrind
			continue
		}
		ns := records.Median(r.Values(c, records.NsPerOp))
		n := max(1, int(float64(InstructionBudget.Nanoseconds())/max(ns, 1)))
		if p := r.Periods[c.Name()]; p > 1 {
			n = (n + p - 1) / p * p // whole rotations
		}
		if progress != nil {
			progress(c, n)
		}
		per, err := Instructions(ctx, func(ops int) []string { return command(c, ops) }, n)
		if err != nil {
			return fmt.Errorf("cell %s: %v", c.Name(), err)
		}
		// One process's count per round's record: the records then hold
		// the per-process sample a gate tests (rounds beyond the processes
		// reuse them in turn).
		k := 0
		for i := range r.Samples {
			if r.Samples[i].Cell.Name() == c.Name() {
				r.Samples[i].Metrics = append(r.Samples[i].Metrics, workloads.Metric{Value: per[k%len(per)], Unit: records.Instructions})
				k++
			}
		}
	}
	return nil
}
