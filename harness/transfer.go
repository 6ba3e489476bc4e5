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
// core wrote its cache line last: one thread adds to a line and tells the
// other, which times its own add to that line and then a second add, now
// its own. The first less the second is the line's transfer between the
// window's first two cores. A 2-core runner's two virtual CPUs do not stay
// on the same pair of physical cores: a change whose cost is a shared line
// measures at 2 threads what the pair it was given charges, and this is
// what each window's pair charged (results/scaling/runner/placement).
const (
	transferRounds = 2000
	transferFor    = 5 * time.Millisecond
	// transferLeast is how many timed writes make a probe: fewer fit in
	// transferFor only where one of its threads waited for a CPU.
	transferLeast = 200
)

// aLine is a counter alone on its cache line.
type aLine struct {
	_ [64]byte
	n atomic.Int64
	_ [64]byte
}

// transferProbe measures the transfer on the first two of cpus (any two
// where there are fewer); ok is false where too few writes were timed.
func transferProbe(cpus []int) (m workloads.Metric, ok bool) {
	prev := runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	var data, told, back aLine
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
	wg.Go(func() { // writes the line, then waits for the other's two writes
		defer on(0)()
		defer stop.Store(true)
		for r := int64(1); r <= transferRounds && time.Now().Before(deadline); r++ {
			data.n.Add(1)
			told.n.Store(r)
			for back.n.Load() != r {
				if time.Now().After(deadline) {
					return
				}
			}
		}
	})
	wg.Go(func() { // times a write to the line the other wrote, then one to its own
		defer on(1)()
		for r := int64(1); ; r++ {
			for told.n.Load() != r {
				if stop.Load() {
					return
				}
			}
			t0 := time.Now()
			data.n.Add(1)
			t1 := time.Now()
			data.n.Add(1)
			t2 := time.Now()
			far, near = append(far, t1.Sub(t0)), append(near, t2.Sub(t1))
			back.n.Store(r)
		}
	})
	wg.Wait()
	if len(far) < transferLeast {
		return m, false
	}
	d := median(far) - median(near)
	return workloads.Metric{Value: max(d, 0).Seconds(), Unit: records.TransferProbe}, true
}

// median is the middle of v (sorted in place).
func median(v []time.Duration) time.Duration {
	slices.Sort(v)
	return v[len(v)/2]
}
