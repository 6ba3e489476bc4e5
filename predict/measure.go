package predict

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/internal/threadcpu"
	"github.com/perfrun/perfrun/records"
)

// Measured are the machine's constants as Measure found them over its
// windows: their lowest, median and highest, and the parallelism two
// threads of independent work got beside them.
type Measured struct {
	Low, Mid, High Constants
	Windows        int
	// Parallel is the lowest speed-up two threads of independent work
	// showed over one, in windows interleaved with the constants': near 2
	// on a machine whose two cores were free, lower where something else
	// ran, and then every constant is inflated.
	Parallel float64
	// Disturbed counts the windows set aside because one of the two
	// spinning threads waited for a CPU more than MaxWait of a window;
	// where every window was, all are kept and the constants are inflated.
	Disturbed int
	// Source names where constants not measured here come from (a
	// reference set); "" for Measure's.
	Source string
	// PerInstruction, where set, is the time one instruction of c's call
	// takes (lowest, middle, highest), for a cell whose every 1-thread
	// sample the machine set aside: its instructions then stand for its
	// time, and a busy machine still gets a prediction from its counts.
	PerInstruction func(c *records.Cell) [3]float64
	// FromCounts predicts every cell from its instructions at
	// PerInstruction, its measured time unread: a prediction that is a
	// function of the counts alone, the same beside any load.
	FromCounts bool
	// Within, where set, are the constants at thread counts up to Cores:
	// a runner's own, where it measures, when these are a server's.
	Within *Measured
	Cores  int
	// MeasuredOn is how many cores the machine these constants were
	// measured on has, where they speak for it alone (a runner's): they
	// hold up to that many threads, whatever cores a file claims; 0 for
	// constants of no one machine's cores.
	MeasuredOn int
	// CPU is the processor those cores were, as the results' cpu line
	// names it; "" for constants of no one machine.
	CPU string
}

// Elsewhere says, for results measured on cpu, that these constants
// were measured on another processor, and how to measure this one's; ""
// where they were measured on it, or either processor is not known.
func (m Measured) Elsewhere(cpu string) string {
	cpu = strings.TrimSpace(cpu)
	if m.CPU == "" || cpu == "" || cpu == m.CPU {
		return ""
	}
	return fmt.Sprintf("the predictions within the cores use constants %s, on %s; these results were measured on %s, another processor (perfrun predict -constants measure measures its own)",
		m.Source, m.CPU, cpu)
}

// WithinUpTo is the last thread count the constants within the cores
// (Within) predict: the cores of the machine that made the counts, but
// no more than the cores those constants were measured on.
func (m Measured) WithinUpTo() int {
	if m.Within == nil {
		return 0
	}
	return m.Within.upTo(m.Cores)
}

// upTo is the last of cores threads these constants speak for: no more
// than the cores they were measured on (MeasuredOn), where that is known.
func (m Measured) upTo(cores int) int {
	if m.MeasuredOn > 0 {
		return min(cores, m.MeasuredOn)
	}
	return cores
}

// MaxWait is the share of a window a spinning thread may wait for a CPU
// before the window's constants are set aside: the run's own limit for a
// worker (harness.DefaultQuarantine).
const MaxWait = 0.25

// spinner times one thread's CPU across a window: a thread that spins the
// whole window and got less than the window waited for a CPU.
type spinner struct {
	start time.Time
	cpu   time.Duration
	ok    bool
}

func startSpin() spinner {
	c, ok := threadcpu.Used()
	return spinner{start: time.Now(), cpu: c, ok: ok}
}

// waited is the share of the window since startSpin the thread did not run.
func (s spinner) waited() float64 {
	c, ok := threadcpu.Used()
	wall := time.Since(s.start)
	if !ok || !s.ok || wall <= 0 {
		return 0
	}
	return max(0, 1-float64(c-s.cpu)/float64(wall))
}

// Measure times, on two threads of this machine, what contention costs:
// a mutex handed from one thread to another that waits for it, with the
// waiter still spinning (held for a moment) and gone to sleep (held for
// long: its wake-up), and a cache line that two threads write in turn
// (each write waits for the line to come from the other core; its
// transfer is half a turn, Constants.Transfer). Each is
// timed windows times for window, interleaved; a machine that gives the
// second thread's core away for a while shows as a window whose constants
// are off, kept in Low and High. Each kind is summarized on its own
// (summarize): the spinning hand-off is Spin, a Go lock's; the sleeping
// one Handoff, a lock whose waiters sleep at once.
//
// It stops early when ctx is done, with the windows measured by then
// (Windows says how many), and reports each window to progress if set.
func Measure(ctx context.Context, window time.Duration, windows int, progress func(done, total int)) Measured {
	var spin, sleep, transfer []float64 // the windows kept
	var all [3][]float64                // every window's, kept where none was
	parallel := 2.0
	disturbed := 0
	done := 0
	for ; done < windows && ctx.Err() == nil; done++ {
		if progress != nil {
			progress(done, windows)
		}
		parallel = min(parallel, timeAlone(1, window)/timeAlone(2, window))
		h, w1 := handoff(window, 0)
		hs, w2 := handoff(window, 50*time.Microsecond)
		turn, w3 := pingPong(window)
		t := turn / 2 // a turn moves the line twice (Constants.Transfer)
		all[0], all[1], all[2] = append(all[0], h), append(all[1], hs), append(all[2], t)
		if max(w1, w2, w3) > MaxWait {
			disturbed++
			continue
		}
		spin, sleep, transfer = append(spin, h), append(sleep, hs), append(transfer, t)
	}
	if done == 0 {
		return Measured{}
	}
	if len(spin) == 0 {
		spin, sleep, transfer = all[0], all[1], all[2]
	}
	m := summarize(spin, sleep, transfer)
	m.Windows, m.Parallel, m.Disturbed = done, parallel, disturbed
	return m
}

// summarize gives the constants of the windows kept, each kind of its
// own: Low the fastest, Mid the median, High the slowest of the spinning
// hand-offs (Spin: a Go mutex's waiter that spins), of the sleeping ones
// (Handoff: a waiter that had gone to sleep, woken) and of the transfers.
func summarize(spin, sleep, transfer []float64) Measured {
	for _, v := range [][]float64{spin, sleep, transfer} {
		slices.Sort(v)
	}
	at := func(v []float64, i int) float64 { return v[[]int{0, len(v) / 2, len(v) - 1}[i]] }
	k := func(i int) Constants {
		return Constants{Spin: at(spin, i), Handoff: at(sleep, i), Transfer: at(transfer, i)}
	}
	return Measured{Low: k(0), Mid: k(1), High: k(2)}
}

// timeAlone is the wall time per operation of threads threads each doing
// work of its own, nothing shared, for a window.
func timeAlone(threads int, window time.Duration) float64 {
	return perOp(threads, window, func(n int) {
		x := 0
		for i := range n * 100 {
			x = x*31 + i
		}
		sink.Add(int64(x))
	})
}

// sink keeps the work from being optimised away.
var sink atomic.Int64

// perOp runs work on threads threads, each on an OS thread of its own, in
// batches until window has passed, and returns the wall time over all
// their operations.
func perOp(threads int, window time.Duration, work func(n int)) float64 {
	const batch = 100
	prev := runtime.GOMAXPROCS(threads)
	defer runtime.GOMAXPROCS(prev)
	var ops atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(window)
	for range threads {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			n := 0
			for time.Now().Before(deadline) {
				work(batch)
				n += batch
			}
			ops.Add(int64(n))
		})
	}
	wg.Wait()
	return time.Since(start).Seconds() / float64(ops.Load())
}

// handoff is the median time from a mutex's release by one thread to its
// acquisition by another that waited for it while it was held for hold,
// over a window, and the share of the window the holder, which spins
// throughout, waited for a CPU.
func handoff(window, hold time.Duration) (float64, float64) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	var mu sync.Mutex
	var released atomic.Int64 // when the holder let go, in ns since start
	var waiting atomic.Bool
	start := time.Now()
	deadline := start.Add(window)
	var times []float64
	done := make(chan struct{})
	go func() { // the waiter
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(done)
		for time.Now().Before(deadline) {
			for !waiting.CompareAndSwap(false, true) {
			}
			mu.Lock()
			got := time.Since(start).Nanoseconds()
			if r := released.Load(); r > 0 {
				times = append(times, float64(got-r)*1e-9)
			}
			mu.Unlock()
		}
	}()
	runtime.LockOSThread()
	sp := startSpin()
	for time.Now().Before(deadline) {
		mu.Lock()
		waiting.Store(false) // the waiter may come for the lock now
		released.Store(0)
		for t := time.Now(); time.Since(t) < hold; {
		}
		released.Store(time.Since(start).Nanoseconds())
		mu.Unlock()
		for !waiting.Load() && time.Now().Before(deadline) { // the waiter has had its turn
		}
	}
	waited := sp.waited()
	runtime.UnlockOSThread()
	waiting.Store(false)
	<-done
	if len(times) == 0 {
		return 0, waited
	}
	slices.Sort(times)
	return times[len(times)/2], waited
}

// pingPong is the time per write of a counter two threads increment in
// turn, each waiting for the other's write: a cache-line transfer between
// their cores, over a window; and the larger share of the window either
// thread, spinning throughout, waited for a CPU.
func pingPong(window time.Duration) (float64, float64) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	var line atomic.Int64
	deadline := time.Now().Add(window)
	var wg sync.WaitGroup
	var stop atomic.Bool
	start := time.Now()
	var waited [2]float64
	for me := range int64(2) {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			sp := startSpin()
			defer func() { waited[me] = sp.waited() }()
			for i := 0; !stop.Load(); i++ {
				v := line.Load()
				if v%2 != me {
					continue
				}
				line.Add(1)
				if me == 0 && i%64 == 0 && time.Now().After(deadline) {
					stop.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start).Seconds() / float64(max(line.Load(), 1)), max(waited[0], waited[1])
}

// Inflated says whether the machine was busy throughout the measurement:
// every window disturbed, or two threads of independent work far from
// twice one; then every constant is inflated and a prediction from them
// is no answer.
func (m Measured) Inflated() bool {
	return m.Source == "" && (m.Disturbed == m.Windows && m.Windows > 0 || m.Parallel < 1.8)
}

// Busy says, in a sentence, how the machine disturbed the measurement of
// the constants; empty where it did not.
func (m Measured) Busy() string {
	switch {
	case m.Source != "":
		return ""
	case m.Disturbed == m.Windows && m.Windows > 0:
		return fmt.Sprintf("in every one of the %d windows a thread that spins throughout waited for a CPU more than %.0f%% of it: the machine was busy and every constant is inflated; predict again with nothing else running", m.Windows, 100*MaxWait)
	case m.Disturbed > 0:
		return fmt.Sprintf("%d of %d windows set aside: a thread that spins throughout waited for a CPU more than %.0f%% of them", m.Disturbed, m.Windows, 100*MaxWait)
	case m.Parallel < 1.8:
		return fmt.Sprintf("two threads of independent work ran only %.2f× as fast as one while the constants were measured: the machine was busy and every constant is inflated; predict again with nothing else running", m.Parallel)
	}
	return ""
}
