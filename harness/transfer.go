package harness

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// The transfer probe times, right after every window on two threads or
// more (and no more than the cores), what one write costs when the other
// core wrote its cache line last: one thread adds to each of a set of
// lines and tells the other, which times its own adds to those lines, one
// after another, then the same adds again, now to lines of its own. The
// first pass less the second, per line, is the line's transfer between the
// window's first two cores. Each add's address waits for the one before
// it, so the lines come one at a time, and many of them time a transfer
// finer than the clock's step. A 2-core runner's two virtual CPUs do not
// stay on the same pair of physical cores: a change whose cost is a shared
// line measures at 2 threads what the pair it was given charges, and this
// is what each window's pair charged (results/scaling/runner/placement).
const (
	transferRounds = 1000
	transferFor    = 5 * time.Millisecond
	// transferLeast is how many timed passes make a probe: fewer fit in
	// transferFor only where one of its threads waited for a CPU.
	transferLeast = 100
	// transferLines are the lines a pass adds to, and transferApart how
	// many probeLines lie between two of them: a page and more, so no
	// prefetcher brings one in for the add before it.
	transferLines = 16
	transferApart = 33
)

// probeLine is a counter alone on its cache line.
type probeLine struct {
	n atomic.Int64
	_ [120]byte
}

// aLine is a counter alone on its cache line, between two others'.
type aLine struct {
	_ [64]byte
	n atomic.Int64
	_ [64]byte
}

// transferOrder is the order a pass adds to n lines in (n a power of
// two): every line once, not in the order they lie in memory.
func transferOrder(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = (i * 5 % n) * transferApart
	}
	return order
}

// chain adds one to each of lines in order, each add's address waiting
// for the add before it: the counters never reach 1<<62, so dep is always
// zero, but no core can know that before the add returns.
func chain(lines []probeLine, order []int) {
	dep := 0
	for _, i := range order {
		dep = int(lines[i+dep].n.Add(1) >> 62)
	}
}

// transferProbe measures the transfer on the first two of cpus (any two
// where there are fewer); ok is false where too few passes were timed.
func transferProbe(cpus []int) (m workloads.Metric, ok bool) {
	d, ok := timeTransfer(cpus, true, transferLines)
	if !ok {
		return m, false
	}
	return workloads.Metric{Value: max(d, 0).Seconds(), Unit: records.TransferProbe}, true
}

// timeTransfer is the probe over n lines: its median first pass less its
// median second, per line. Where moved is false the other thread adds to
// lines of its own, so nothing moves between the cores: what the probe
// reads where no line is transferred.
func timeTransfer(cpus []int, moved bool, n int) (perLine time.Duration, ok bool) {
	prev := runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	lines := make([]probeLine, n*transferApart)
	theirs := lines
	if !moved {
		theirs = make([]probeLine, n*transferApart)
	}
	order := transferOrder(n)
	var told, back aLine
	var stop atomic.Bool
	far := make([]time.Duration, 0, transferRounds)
	near := make([]time.Duration, 0, transferRounds)
	on := func(i int) (undo func()) {
		runtime.LockOSThread()
		if len(cpus) >= 2 {
			if unpin, pinned := pinThread(cpus[i]); pinned {
				return func() { unpin(); runtime.UnlockOSThread() }
			}
		}
		return runtime.UnlockOSThread
	}
	deadline := time.Now().Add(transferFor)
	var wg sync.WaitGroup
	wg.Go(func() { // writes the lines, then waits for the other's two passes
		defer on(0)()
		defer stop.Store(true)
		for r := int64(1); r <= transferRounds && time.Now().Before(deadline); r++ {
			chain(theirs, order)
			told.n.Store(r)
			for back.n.Load() != r {
				if time.Now().After(deadline) {
					return
				}
			}
		}
	})
	wg.Go(func() { // times a pass over the lines the other wrote, then one over its own
		defer on(1)()
		for r := int64(1); ; r++ {
			for told.n.Load() != r {
				if stop.Load() {
					return
				}
			}
			t0 := time.Now()
			chain(lines, order)
			t1 := time.Now()
			chain(lines, order)
			t2 := time.Now()
			far, near = append(far, t1.Sub(t0)), append(near, t2.Sub(t1))
			back.n.Store(r)
		}
	})
	wg.Wait()
	if len(far) < transferLeast {
		return 0, false
	}
	return (median(far) - median(near)) / time.Duration(n), true
}

// median is the middle of v (sorted in place).
func median(v []time.Duration) time.Duration {
	slices.Sort(v)
	return v[len(v)/2]
}

// Transfer is the transfer probe run now, on two of the CPUs this process
// may use: what a write costs where the other core wrote its line last,
// per line; ok is false where the machine starved it.
func Transfer() (perLine time.Duration, ok bool) {
	return timeTransfer(allowedCPUs(), true, transferLines)
}
