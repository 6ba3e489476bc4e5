package harness

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// batchTarget is how long a batch of operations should take: long enough
// that reading the clock once per batch costs nothing measurable, short
// enough that a worker stops close to the end of the window.
const batchTarget = 100 * time.Microsecond

// MinWindow is the shortest measured window: ten batches, so that the
// clock read at the end of the last batch lands near the deadline.
const MinWindow = 10 * batchTarget

// runtimeSamples are the process-wide counters read around a measurement.
var runtimeMetrics = []string{
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
	"/sync/mutex/wait/total:seconds",
	"/gc/cycles/total:gc-cycles",
}

func readRuntime() [4]float64 {
	s := make([]metrics.Sample, len(runtimeMetrics))
	for i, name := range runtimeMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	var out [4]float64
	for i := range s {
		switch s[i].Value.Kind() {
		case metrics.KindUint64:
			out[i] = float64(s[i].Value.Uint64())
		case metrics.KindFloat64:
			out[i] = s[i].Value.Float64()
		}
	}
	return out
}

type workerResult struct {
	ops     int64
	elapsed time.Duration
	err     error
	// cpu is the CPU time the worker's thread got in the window, delay the
	// time it was runnable but waiting for a CPU; probed says both were read.
	cpu, delay time.Duration
	probed     bool
}

// measure runs one cell once: threads workers locked to OS threads (and
// pinned to distinct CPUs when cpus lists enough) warm up, meet at a
// barrier, then each runs batches of operations until the shared deadline,
// reading the clock once per batch. Callers collect the heap first
// (runtime.GC), so no earlier cell's garbage is collected inside a
// window; the speed probe, which allocates nothing, skips that.
func measure(ctx context.Context, inst *workloads.Instance, threads int, warmup, window time.Duration, mem memory, cpus []int) ([]workloads.Metric, error) {
	prev := runtime.GOMAXPROCS(threads)
	defer runtime.GOMAXPROCS(prev)
	if len(cpus) < threads {
		cpus = nil
	}

	var stop atomic.Bool
	var deadline time.Time // written before start is closed
	start := make(chan struct{})
	var warm, done sync.WaitGroup
	workers := make([]workerResult, threads)
	for w := range threads {
		op := inst.Worker(w)
		warm.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if cpus != nil {
				undo, _ := pinThread(cpus[w])
				defer undo()
			}
			batch, err := warmUp(op, warmup, window)
			warm.Done()
			<-start
			r := &workers[w]
			if err != nil {
				r.err = err
				stop.Store(true)
				return
			}
			cpu0, ok1 := threadCPU()
			delay0, ok2 := runDelay()
			t0 := time.Now()
			for {
				if err := op(batch); err != nil {
					r.err = err
					stop.Store(true)
					break
				}
				r.ops += int64(batch)
				if now := time.Now(); !now.Before(deadline) || stop.Load() {
					r.elapsed = now.Sub(t0)
					break
				}
			}
			cpu1, ok3 := threadCPU()
			delay1, ok4 := runDelay()
			r.cpu, r.delay, r.probed = cpu1-cpu0, delay1-delay0, ok1 && ok2 && ok3 && ok4
		}()
	}
	// Paced workers wait at the same barrier, so they cannot miss a short
	// window by being scheduled late.
	paced := make([]pacedResult, len(inst.Paced))
	for i, p := range inst.Paced {
		warm.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			warm.Done()
			<-start
			paced[i] = runPaced(p, deadline, &stop)
		}()
	}
	warm.Wait()
	steal0, stealOK := stealTime()
	before := readRuntime()
	wallStart := time.Now()
	deadline = wallStart.Add(window)
	close(start)
	// An interrupt stops the workers at their next batch, not at the end
	// of a window that may be hours long; the window is then not a sample.
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-finished:
		}
	}()
	done.Wait()
	close(finished)
	wall := time.Since(wallStart)
	after := readRuntime()
	steal1, _ := stealTime()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var total int64
	var nsPerCall float64
	var errs []error
	for _, r := range workers {
		errs = append(errs, r.err)
		total += r.ops
		if r.ops > 0 {
			nsPerCall += float64(r.elapsed.Nanoseconds()) / float64(r.ops) / float64(threads)
		}
	}
	for _, p := range paced {
		errs = append(errs, p.err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if total == 0 {
		return nil, errors.New("no operation completed")
	}
	n := float64(total)
	out := []workloads.Metric{
		{Value: float64(wall.Nanoseconds()) / n, Unit: records.NsPerOp},
		{Value: nsPerCall, Unit: records.NsPerCall},
		{Value: n / wall.Seconds(), Unit: records.OpsPerSec},
		{Value: mem.bytes, Unit: records.BPerOp},
		{Value: mem.allocs, Unit: records.AllocsPerOp},
		{Value: (after[2] - before[2]) / n, Unit: records.LockWait},
		{Value: after[3] - before[3], Unit: records.GCCycles},
	}
	out = append(out, machineMetrics(workers, wall, n, steal1-steal0, stealOK)...)
	if inst.Unit != "" && inst.PerOp > 0 {
		// The time one worker spends per unit of an operation (per add).
		out = append(out, workloads.Metric{Value: nsPerCall / inst.PerOp, Unit: "ns/" + inst.Unit})
	}
	for i, p := range inst.Paced {
		if paced[i].ops > 0 {
			out = append(out,
				workloads.Metric{Value: float64(paced[i].busy.Nanoseconds()) / float64(paced[i].ops), Unit: p.Role + "-ns/op"},
				workloads.Metric{Value: float64(paced[i].ops) / wall.Seconds(), Unit: p.Role + "-ops/s"})
		}
	}
	return append(out, inst.Extra...), nil
}

// machineMetrics are what the kernel saw of the workers in the window:
// CPU time per operation, the largest fraction of the window any worker
// spent waiting for a CPU, the fairness between workers (the fewest operations any
// worker completed over the most), and the fraction of the machine's CPU
// time the hypervisor stole. Each is left out where it cannot be read.
func machineMetrics(workers []workerResult, wall time.Duration, ops float64, steal time.Duration, stealOK bool) []workloads.Metric {
	var out []workloads.Metric
	probed := true
	var cpu, delay time.Duration
	lo, hi := workers[0].ops, workers[0].ops
	for _, r := range workers {
		probed = probed && r.probed
		cpu += r.cpu
		delay = max(delay, r.delay)
		lo, hi = min(lo, r.ops), max(hi, r.ops)
	}
	if probed {
		out = append(out,
			workloads.Metric{Value: float64(cpu.Nanoseconds()) / ops, Unit: records.CPUPerOp},
			workloads.Metric{Value: delay.Seconds() / wall.Seconds(), Unit: records.RunQueue})
	}
	if len(workers) > 1 && hi > 0 {
		out = append(out, workloads.Metric{Value: float64(lo) / float64(hi), Unit: records.Fairness})
	}
	if stealOK {
		out = append(out, workloads.Metric{Value: steal.Seconds() / (wall.Seconds() * float64(Cores())), Unit: records.Steal})
	}
	return out
}

// memory is what one worker's operation allocates.
type memory struct{ bytes, allocs float64 }

// alone counts what one worker's operations allocate with nothing else
// running (GOMAXPROCS 1, no paced worker): B/op and allocs/op of the
// workload itself, the same in every process and round. Counted across a
// whole window instead, they were process-wide: in mixed they moved with
// the readers' throughput, because the writer's allocations were divided
// by the readers' operations.
func alone(inst *workloads.Instance) (memory, error) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	op := inst.Worker(0)
	// First calls may fill caches (a real store parses each leaf on its
	// first lookup): one whole rotation before counting.
	if err := op(max(1, inst.Period)); err != nil {
		return memory{}, err
	}
	// As testing.AllocsPerRun: runtime.ReadMemStats is exact and allocates
	// nothing of its own.
	var before, after runtime.MemStats
	n := 0
	runtime.ReadMemStats(&before)
	start := time.Now()
	for n == 0 || n < 1000 && time.Since(start) < 20*time.Millisecond {
		if err := op(1); err != nil {
			return memory{}, err
		}
		n++
	}
	runtime.ReadMemStats(&after)
	return memory{bytes: float64(after.TotalAlloc-before.TotalAlloc) / float64(n), allocs: float64(after.Mallocs-before.Mallocs) / float64(n)}, nil
}

// warmUp runs op for the warm-up time, growing the batch until one batch
// takes about batchTarget (but at most a twentieth of the window). It always
// runs at least one operation.
func warmUp(op workloads.Op, warmup, window time.Duration) (int, error) {
	batch := 1
	end := time.Now().Add(warmup)
	for {
		t0 := time.Now()
		if err := op(batch); err != nil {
			return batch, err
		}
		now := time.Now()
		took := now.Sub(t0)
		if took < batchTarget && took < window/20 && batch < 1<<20 {
			batch *= 2
		}
		if !now.Before(end) {
			return batch, nil
		}
	}
}

type pacedResult struct {
	ops  int64
	busy time.Duration
	err  error
}

// runPaced runs a paced worker until the deadline, at least once, timing
// each operation alone (not the sleeps between them).
func runPaced(p workloads.Paced, deadline time.Time, stop *atomic.Bool) pacedResult {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r pacedResult
	next := time.Now()
	for !stop.Load() {
		t0 := time.Now()
		if r.ops > 0 && !t0.Before(deadline) {
			break
		}
		if err := p.Op(); err != nil {
			r.err = err
			stop.Store(true)
			break
		}
		r.busy += time.Since(t0)
		r.ops++
		next = next.Add(p.Interval)
		wake := next
		if wake.After(deadline) {
			wake = deadline
		}
		time.Sleep(time.Until(wake))
	}
	return r
}
