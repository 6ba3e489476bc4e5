package harness

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/internal/threadcpu"
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

// runtimeCounters are the process-wide counters read around a window.
type runtimeCounters struct {
	mutexWait float64 // seconds blocked on a runtime lock, all goroutines
	gcCycles  float64
}

// minus is the counters' change from before to r.
func (r runtimeCounters) minus(before runtimeCounters) runtimeCounters {
	return runtimeCounters{mutexWait: r.mutexWait - before.mutexWait, gcCycles: r.gcCycles - before.gcCycles}
}

// readRuntime reads the counters from runtime/metrics.
func readRuntime() runtimeCounters {
	s := []metrics.Sample{{Name: "/sync/mutex/wait/total:seconds"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return runtimeCounters{mutexWait: s[0].Value.Float64(), gcCycles: float64(s[1].Value.Uint64())}
}

type workerResult struct {
	ops int64
	// elapsed is the worker's time in its batches: the window's time
	// less its yields between batches (see work).
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
	prev := runtime.GOMAXPROCS(procsFor(inst, threads))
	defer runtime.GOMAXPROCS(prev)
	if len(cpus) < threads {
		cpus = nil
	}
	b := &barrier{start: make(chan struct{})}
	var warm, done sync.WaitGroup
	workers := make([]workerResult, threads)
	for w := range threads {
		op := guard(inst.Worker(w))
		cpu := -1
		if cpus != nil {
			cpu = cpus[w]
		}
		warm.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			b.work(op, warmup, window, batchFor(inst), inst.BatchTarget > 0, cpu, &warm, &workers[w])
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
			<-b.start
			p.Op = guardPaced(p.Op)
			paced[i] = runPaced(p, b.deadline, &b.stop)
		}()
	}
	warm.Wait()
	steal0, stealOK := stealTime()
	before := readRuntime()
	wallStart := time.Now()
	b.deadline = wallStart.Add(window)
	close(b.start)
	// An interrupt stops the workers at their next batch, not at the end
	// of a window that may be hours long; the window is then not a sample.
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			b.stop.Store(true)
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
	var errs []error
	for _, r := range workers {
		errs = append(errs, r.err)
	}
	for _, p := range paced {
		errs = append(errs, p.err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return windowMetrics(inst, workers, paced, wall, mem, after.minus(before), steal1-steal0, stealOK)
}

// barrier is what a window's workers share: the start signal, the
// deadline (written before start is closed) and the stop flag that ends
// the window early on an error or an interrupt.
type barrier struct {
	start    chan struct{}
	deadline time.Time
	stop     atomic.Bool
}

// work is one worker's window: warm up, wait for the start, run batches
// until the deadline, and record what it did and what the kernel saw of
// its thread. cpu >= 0 pins the thread there.
func (b *barrier) work(op workloads.Op, warmup, window, target time.Duration, yield bool, cpu int, warm *sync.WaitGroup, r *workerResult) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cpu >= 0 {
		undo, _ := pinThread(cpu)
		defer undo()
	}
	batch, err := warmUp(op, warmup, window, target)
	warm.Done()
	<-b.start
	if err != nil {
		r.err = err
		b.stop.Store(true)
		return
	}
	cpu0, ok1 := threadcpu.Used()
	delay0, ok2 := runDelay()
	t0 := time.Now()
	var yielded time.Duration
	for {
		if err := op(batch); err != nil {
			r.err = err
			b.stop.Store(true)
			break
		}
		r.ops += int64(batch)
		now := time.Now()
		if !now.Before(b.deadline) || b.stop.Load() {
			r.elapsed = now.Sub(t0) - yielded
			break
		}
		if yield {
			// The yield is the harness's, not the store's: a locked
			// thread's yield hands its goroutine to another thread and
			// back (its cost: results/fidelity/x509storeissuer-same-leaf).
			// The worker's time leaves it out (the window's wall time
			// keeps it).
			yieldBatch() // see procsFor
			yielded += time.Since(now)
		}
	}
	cpu1, ok3 := threadcpu.Used()
	delay1, ok4 := runDelay()
	r.cpu, r.delay, r.probed = cpu1-cpu0, delay1-delay0, ok1 && ok2 && ok3 && ok4
}

// yieldBatch is how a worker of a store behind cgo yields between batches.
var yieldBatch = runtime.Gosched

// windowMetrics are a window's values: its times and rates, the
// allocations counted alone before, the runtime's and the kernel's
// counters over the window, and the workload's own units.
func windowMetrics(inst *workloads.Instance, workers []workerResult, paced []pacedResult, wall time.Duration, mem memory,
	rt runtimeCounters, steal time.Duration, stealOK bool) ([]workloads.Metric, error) {
	var total int64
	var nsPerCall float64
	for _, r := range workers {
		total += r.ops
		if r.ops > 0 {
			nsPerCall += float64(r.elapsed.Nanoseconds()) / float64(r.ops) / float64(len(workers))
		}
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
		{Value: rt.mutexWait / n, Unit: records.LockWait},
		{Value: rt.gcCycles, Unit: records.GCCycles},
	}
	out = append(out, machineMetrics(workers, wall, n, steal, stealOK)...)
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
		out = append(out, stealMetric(steal, wall))
	}
	return out
}

// stealMetric is the fraction of the machine's CPU time the hypervisor
// stole over wall.
func stealMetric(steal, wall time.Duration) workloads.Metric {
	return workloads.Metric{Value: steal.Seconds() / (wall.Seconds() * float64(Cores())), Unit: records.Steal}
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

// batchFor is how long a batch of inst's operations should take:
// batchTarget, or the instance's own (a store behind cgo wants few, long
// crossings).
func batchFor(inst *workloads.Instance) time.Duration {
	if inst.BatchTarget > 0 {
		return inst.BatchTarget
	}
	return batchTarget
}

// warmUp runs op for the warm-up time, growing the batch until one batch
// takes about target (but at most a twentieth of the window). It always
// runs at least one operation.
func warmUp(op workloads.Op, warmup, window, target time.Duration) (int, error) {
	batch := 1
	end := time.Now().Add(warmup)
	for {
		t0 := time.Now()
		if err := op(batch); err != nil {
			return batch, err
		}
		now := time.Now()
		took := now.Sub(t0)
		if took < target && took < window/20 && batch < 1<<20 {
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

// procsFor is the GOMAXPROCS a window of inst on threads workers runs
// with: the thread count, and one spare P for a store behind cgo
// (Instance.BatchTarget), whose workers then yield after every batch. Such
// a worker spends its batches in C, where Go counts it as in a system
// call, and its goroutine never yields by itself: once it has run 10 ms,
// or while no P is idle, the runtime's monitor takes its P at every cgo
// call and wakes on the workers' CPUs. With a P idle and a batch after a
// yield, runtime.retake leaves the call alone and the monitor sleeps
// (results/notes.md, "A spare P for stores behind cgo").
func procsFor(inst *workloads.Instance, threads int) int {
	if inst.BatchTarget > 0 {
		return threads + 1
	}
	return threads
}
