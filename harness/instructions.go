package harness

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// Processes is how many processes count the instructions of a cell for a
// gate, which needs at least five a side to treat the counts as a sample.
const Processes = 5

// CountInstructions adds instructions/op to every sample of each
// single-threaded store cell, counted in procs processes (Processes for a
// gate), each process's count to its own round. command is the perfrun
// that performs ops operations of a cell (the CLI's cell-ops); progress,
// if set, is told as each cell's count starts.
func (r *Outcome) CountInstructions(ctx context.Context, procs int, command func(c Cell, ops int) []string, progress func(c Cell, ops int)) error {
	count := func(ctx context.Context, c Cell, n int) ([]float64, error) {
		return callgrind.Instructions(ctx, procs, func(ops int) []string { return command(c, ops) }, n)
	}
	return eachCounted(ctx, r, count, progress, func(c Cell, per []float64) {
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
	})
}

// CountLocks adds the lock profile, every unit of predict.ProfileUnits,
// to every sample of each single-threaded store cell: one process a cell,
// since a profile is exact. command is a binary
// built for lock profiles running the cell's operations through locks.Run
// (the CLI's cell-ops -locks).
func (r *Outcome) CountLocks(ctx context.Context, command func(c Cell, ops int) []string, progress func(c Cell, ops int)) error {
	count := func(ctx context.Context, c Cell, n int) (locks.Profile, error) {
		return locks.Count(ctx, command(c, n), nil)
	}
	return eachCounted(ctx, r, count, progress, func(c Cell, p locks.Profile) {
		values := predict.ProfileValues(p.Cell(c.Name(), 0))
		for i := range r.Samples {
			if r.Samples[i].Cell.Name() == c.Name() {
				for j, u := range predict.ProfileUnits {
					r.Samples[i].Metrics = append(r.Samples[i].Metrics, workloads.Metric{Value: values[j], Unit: u.Unit})
				}
			}
		}
	})
}

// eachCounted counts every counted cell, as many at once as the machine
// has cores — the windows are all measured by then, and a count under
// callgrind is exact however busy the machine is — and hands each count
// to keep in the cells' order once all are taken. The first error stops
// the others.
func eachCounted[T any](ctx context.Context, r *Outcome, count func(context.Context, Cell, int) (T, error), progress func(Cell, int), keep func(Cell, T)) error {
	type job struct {
		c Cell
		n int
	}
	var jobs []job
	for c, n := range r.countedCells() {
		jobs = append(jobs, job{c, n})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]T, len(jobs))
	errs := make([]error, len(jobs))
	slots := make(chan struct{}, max(1, Cores()))
	var wg sync.WaitGroup
	for i, j := range jobs {
		slots <- struct{}{}
		if ctx.Err() != nil {
			<-slots
			break
		}
		if progress != nil {
			progress(j.c, j.n)
		}
		wg.Go(func() {
			defer func() { <-slots }()
			if out[i], errs[i] = count(ctx, j.c, j.n); errs[i] != nil {
				errs[i] = fmt.Errorf("cell %s: %w", j.c.Name(), errs[i])
				cancel()
			}
		})
	}
	wg.Wait()
	// The first error that is not another's cancellation; an interrupt.
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || errors.Is(first, context.Canceled) && !errors.Is(err, context.Canceled)) {
			first = err
		}
	}
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		return first
	}
	for i, j := range jobs {
		keep(j.c, out[i])
	}
	return nil
}

// countedCells are the cells counts are taken of, each with how many
// operations to count: the single-threaded cells of perfrun's stores that
// it measured (a floor measures no store; a command is not perfrun's to
// run under valgrind; a store that lacks what the workload needs measured
// nothing), each its workload's CountOps in whole rotations, so every leaf
// weighs the same and no measured time sizes a count.
func (r *Outcome) countedCells() iter.Seq2[Cell, int] {
	return func(yield func(Cell, int) bool) {
		for _, c := range r.Cells {
			if _, left := r.Unsupported[c.Name()]; left || c.Threads != 1 || c.Impl.Name == "" || c.Command != nil {
				continue
			}
			if !yield(c, CountOps(c.Workload, r.Periods[c.Name()])) {
				return
			}
		}
	}
}

// CountOps is how many operations an exact count of a cell of w runs, its
// worker's sequence repeating after period operations (0: none): w's
// CountOps, fixed in advance, rounded to whole periods and batches.
func CountOps(w workloads.Workload, period int) int {
	return callgrind.Round(max(w.CountOps, 1), period)
}
