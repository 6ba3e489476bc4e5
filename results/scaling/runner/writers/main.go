// Command writers times what a writer among readers of a sync.RWMutex
// costs at 2 threads, with the workers locked to OS threads as the
// harness runs them and without, and what waking a parked goroutine
// costs either way: the parts of the model's writer term
// (predict.writerWaits) that the held changes whose writers moved miss.
//
// By default it times calls made as a read-locked lookup is (20 steps of
// work outside the read lock, 60 inside), with a write in place of the
// read once in every k calls of each worker, at 1 and 2 threads, locked
// and not, each pair of runs beside the harness's transfer probe (the
// pair of cores it ran on). With -wake it times instead how long a
// goroutine parked on a channel takes to run after another sends to it,
// the sends gap apart, locked and not. With -trace FILE it writes a
// runtime trace of one 2-thread window (locked; with -unlocked, not), a
// writer 1 call in 256 (-every), and says from it how long the workers ran,
// together and alone, and how long each waited for a core after the
// other woke it.
//
//	go run ./scaling/runner/writers [-wake | -trace FILE [-unlocked] [-every K]]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/trace"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/harness"
)

func main() {
	wake := flag.Bool("wake", false, "time a parked goroutine's wake-up, locked and not, by the gap between wake-ups")
	traceTo := flag.String("trace", "", "write a runtime trace of one locked 2-thread window, a writer 1 call in 256, to this file")
	unlocked := flag.Bool("unlocked", false, "with -trace: the workers not locked to OS threads")
	every := flag.Int("every", 256, "with -trace: the writer once in this many calls of each worker")
	runs := flag.Int("runs", 5, "runs of each, interleaved")
	window := flag.Duration("window", 200*time.Millisecond, "one run's length")
	flag.Parse()
	runtime.GOMAXPROCS(2)
	switch {
	case *traceTo != "":
		if err := traced(*traceTo, *every, !*unlocked, *window); err != nil {
			fmt.Fprintln(os.Stderr, "writers:", err)
			os.Exit(1)
		}
		if err := account(*traceTo); err != nil {
			fmt.Fprintln(os.Stderr, "writers:", err)
			os.Exit(1)
		}
	case *wake:
		wakes(*runs)
	default:
		calls(*runs, *window)
	}
}

// shape is a call: steps of work outside the read lock and inside it.
type shape struct{ outside, inside int }

var lookup = shape{outside: 20, inside: 60}

// guarded is what the lock guards: a table the readers read and the
// writer writes.
type guarded struct {
	mu    sync.RWMutex
	table [64]uint64
}

// step is one step of a worker's own work: no memory touched.
func step(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 17
	}
	return x
}

// window runs threads workers for d, each writing in place of reading
// once in every calls (never where every is 0), locked to OS threads
// where locked: each worker's time per call, as the harness's ns/call
// (the mean over workers of elapsed over calls).
func window(threads, every int, locked bool, s shape, d time.Duration) float64 {
	var g guarded
	var stop atomic.Bool
	var wg sync.WaitGroup
	perCall := make([]float64, threads)
	for w := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if locked {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			defer trace.StartRegion(context.Background(), workerRegion).End()
			x, n := uint64(w+1), 0
			start := time.Now()
			for !stop.Load() {
				for range 64 {
					x = step(x, s.outside)
					n++
					if every > 0 && n%every == 0 {
						g.mu.Lock()
						g.table[x%64] = x
						x = step(x, s.inside)
						g.mu.Unlock()
						continue
					}
					g.mu.RLock()
					x ^= g.table[x%64]
					x = step(x, s.inside)
					g.mu.RUnlock()
				}
			}
			perCall[w] = float64(time.Since(start).Nanoseconds()) / float64(n)
			sink.Add(x)
		}()
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	var mean float64
	for _, p := range perCall {
		mean += p / float64(threads)
	}
	return mean
}

var sink atomic.Uint64

// pair is the transfer probe's median over a few probes, which tells the
// pair of cores the two threads ran on (../placement); 0 where no probe
// kept a reading.
func pair() float64 {
	var got []float64
	for range 5 {
		if t, ok := harness.Transfer(); ok {
			got = append(got, t.Seconds())
		}
	}
	if len(got) == 0 {
		return 0
	}
	slices.Sort(got)
	return got[len(got)/2]
}

// calls prints, for each writer rate and each way of running the
// workers, head ÷ base at 2 threads of each run (base: the same calls
// with no writer, run beside it), with the pair each ran on.
func calls(runs int, d time.Duration) {
	everies := []int{16, 64, 256, 1024}
	type key struct {
		every  int
		locked bool
	}
	got := map[key][]string{}
	for r := range runs {
		for _, every := range everies {
			for _, locked := range []bool{true, false} {
				// Base and head alternate within a run, at 1 and 2 threads.
				b1 := window(1, 0, locked, lookup, d)
				h1 := window(1, every, locked, lookup, d)
				before := pair()
				b2 := window(2, 0, locked, lookup, d)
				h2 := window(2, every, locked, lookup, d)
				after := pair()
				k := key{every, locked}
				got[k] = append(got[k], fmt.Sprintf("%.2f (%.2f at 1; base %.2f over 1 thread; probe %.0f, %.0f ns)",
					h2/b2, h1/b1, b2/b1, 1e9*before, 1e9*after))
			}
		}
		fmt.Fprintf(os.Stderr, "run %d of %d\n", r+1, runs)
	}
	fmt.Printf("a call of %d steps outside the read lock and %d inside; head writes in place of reading once in every k calls of each worker\n",
		lookup.outside, lookup.inside)
	fmt.Println("head ÷ base at 2 threads, each run:")
	for _, every := range everies {
		for _, locked := range []bool{true, false} {
			fmt.Printf("1 in %4d, %-8s:\n", every, workers(locked))
			for _, s := range got[key{every, locked}] {
				fmt.Println("   ", s)
			}
		}
	}
}

// workers names how the workers ran: locked to OS threads, or not.
func workers(locked bool) string {
	if locked {
		return "locked"
	}
	return "unlocked"
}

// wakeAfter times, n times, how long a goroutine parked on a channel
// takes to run after another sends to it, the sender having worked gap
// since the receiver parked: nanoseconds, each.
func wakeAfter(gap time.Duration, n int, locked bool) []float64 {
	ch, ready, done := make(chan struct{}), make(chan struct{}, 1), make(chan struct{})
	var sent atomic.Int64
	lat := make([]float64, 0, n)
	go func() {
		if locked {
			runtime.LockOSThread()
		}
		for range n {
			ready <- struct{}{}
			<-ch
			lat = append(lat, float64(time.Now().UnixNano()-sent.Load()))
		}
		close(done)
	}()
	if locked {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for range n {
		<-ready
		for end := time.Now().Add(gap); time.Now().Before(end); {
		}
		sent.Store(time.Now().UnixNano())
		ch <- struct{}{}
	}
	<-done
	return lat
}

// wakes prints each run's median wake-up, locked and not, by gap.
func wakes(runs int) {
	gaps := []time.Duration{2 * time.Microsecond, 10 * time.Microsecond, 50 * time.Microsecond, 200 * time.Microsecond, time.Millisecond}
	type key struct {
		gap    time.Duration
		locked bool
	}
	got := map[key][]float64{}
	for range runs {
		for _, gap := range gaps {
			for _, locked := range []bool{true, false} {
				lat := wakeAfter(gap, 300, locked)
				slices.Sort(lat)
				k := key{gap, locked}
				got[k] = append(got[k], lat[len(lat)/2]/1e3)
			}
		}
	}
	fmt.Println("a parked goroutine's wake-up, median of 300, in µs, each run:")
	for _, gap := range gaps {
		for _, locked := range []bool{true, false} {
			fmt.Printf("gap %7v, %-8s %.1f\n", gap, workers(locked)+":", got[key{gap, locked}])
		}
	}
}

// traced writes a runtime trace of one 2-thread window, a writer
// once in every calls (account reads it back; `go tool trace -d=parsed FILE`
// lists every event).
func traced(file string, every int, locked bool, d time.Duration) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return err
	}
	window(2, every, locked, lookup, min(d, 30*time.Millisecond))
	trace.Stop()
	return f.Close()
}
