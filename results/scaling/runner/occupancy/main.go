// Command occupancy times one contended cache line two ways on two
// threads: a hand-over (each thread waits for the other's write, then
// writes: the line moves every write) and a write while both threads add
// to it as fast as they can (the time per add over both: a core may keep
// the line for several). A model that charges every contended write a
// hand-over reads the first; a line that saturates serves at the second.
// Beside them it times a call as a store's lookup is made, local work and
// one add to the shared line, at 2 threads over 1: the ratio a change
// that adds such a line is measured at.
//
// With -second it times calls of reads with a second shared add after the
// first (to the same line, to another, or to another with work between).
//
// With -sweep it times that call instead at many lengths of local work,
// of two kinds (a value of its own multiplied and divided, or lines of its
// own read one after another), beside the harness's transfer probe: what
// one shared add costs a call at 2 threads (or at each of -threads, on a
// machine with the cores), by the call's length and what it does around
// the add.
//
//	go run ./scaling/runner/occupancy [-sweep [-threads 2,4,8,16] | -second]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/harness"
)

// padded is a counter alone on its cache line.
type padded struct {
	_ [64]byte
	n atomic.Int64
	_ [64]byte
}

// hammer: two goroutines add to one counter as fast as they can; ns per add over both.
func hammer(d time.Duration) float64 {
	return float64(d.Nanoseconds()) / float64(adds(2, 0, d))
}

// alone: one goroutine adds; ns per add.
func alone(d time.Duration) float64 {
	var c padded
	start := time.Now()
	n := 0
	for time.Since(start) < d {
		for j := 0; j < 1024; j++ {
			c.n.Add(1)
		}
		n += 1024
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// pingpong: each thread waits for the other's write, then writes: ns per hand-over.
func pingpong() float64 {
	var c padded
	var wg sync.WaitGroup
	const rounds = 200000
	start := time.Now()
	for i := int64(0); i < 2; i++ {
		wg.Add(1)
		go func(me int64) {
			defer wg.Done()
			for r := int64(0); r < rounds; r++ {
				want := 2*r + me
				for c.n.Load() != want {
				}
				c.n.Add(1)
			}
		}(i)
	}
	wg.Wait()
	return float64(time.Since(start).Nanoseconds()) / float64(2*rounds)
}

// local is work a call does alone, as a store's lookup does between its
// writes to a shared line: n multiply-divides of a value of its own.
//
//go:noinline
func local(n int) int {
	v := n
	for range n {
		v *= 3
		v /= 3
	}
	return v
}

// node is one of a thread's own lines, read in turn by reads.
type node struct {
	next *node
	_    [56]byte
}

// ring is a thread's own 256 lines (16 KiB, within any L1), each pointing
// to another, all of them in one cycle.
func ring() *node {
	ns := make([]node, 256)
	for i := range ns {
		ns[i].next = &ns[(i*97+1)%256]
	}
	return &ns[0]
}

// reads is local work as a lookup's loads are: n of a thread's own lines
// read one after another, each read's address the read before's value.
//
//go:noinline
func reads(p *node, n int) *node {
	for range n {
		p = p.next
	}
	return p
}

// calls: threads goroutines each doing local work and one add to the
// shared counter a call, for d; ns per call of one thread.
func calls(threads int, d time.Duration) float64 {
	return float64(d.Nanoseconds()) * float64(threads) / float64(adds(threads, 40, d))
}

// A call is what adds runs a call of: work steps of local work, by
// reading lines (reads) or not (local), and one add to the shared counter
// where shared.
type call struct {
	work          int
	loads, shared bool
	// second is a call's second add, after its first: none, to the same
	// counter, to another on a line of its own, or to another with half
	// the work moved between the two adds.
	second int
}

// A call's second add (call.second).
const (
	noSecond = iota
	sameLine
	otherLine
	otherLater
)

// adds runs threads goroutines for d, each making calls of work steps of
// local work (none: adds alone) and one add to a shared counter, and
// returns the adds they made in all.
func adds(threads, work int, d time.Duration) int64 {
	return made(threads, call{work: work, shared: true}, d)
}

// perCall is one thread's ns per call of c on threads goroutines, timed
// for d.
func perCall(threads int, c call, d time.Duration) float64 {
	return float64(d.Nanoseconds()) * float64(threads) / float64(made(threads, c, d))
}

// made runs threads goroutines for d, each making calls of c, and
// returns the calls they made in all.
func made(threads int, c call, d time.Duration) int64 {
	var counter, other padded
	var stop atomic.Bool
	var wg sync.WaitGroup
	done := make([]int64, threads)
	for i := range threads {
		wg.Go(func() {
			n := int64(0) // a local count: the threads share no line but the counter's
			p := ring()
			for !stop.Load() {
				work := func(n int) {
					switch {
					case n == 0: // adds alone, as tight as they go
					case c.loads:
						p = reads(p, n)
					default:
						local(n)
					}
				}
				for range 64 {
					if c.second == otherLater {
						work(c.work / 2)
						counter.n.Add(1)
						work(c.work - c.work/2)
						other.n.Add(1)
						continue
					}
					work(c.work)
					if c.shared {
						counter.n.Add(1)
					}
					switch c.second {
					case sameLine:
						counter.n.Add(1)
					case otherLine:
						other.n.Add(1)
					}
				}
				n += 64
			}
			done[i] = n
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	var total int64
	for _, n := range done {
		total += n
	}
	return total
}

func main() {
	sweepFlag := flag.Bool("sweep", false, "time a call with one shared add at many lengths of local work, beside the transfer probe")
	secondFlag := flag.Bool("second", false, "time a call with a second shared add beside one with one")
	threadsFlag := flag.String("threads", "2", "with -sweep, the thread counts to time the call at besides 1 (on a machine with the cores: 2,4,8,16)")
	flag.Parse()
	threads, err := threadCounts(*threadsFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "occupancy:", err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(max(2, slices.Max(threads)))
	if *secondFlag {
		seconds()
		return
	}
	if *sweepFlag {
		sweep(threads)
		return
	}
	var a, h, p, r []float64
	for i := 0; i < 7; i++ {
		a = append(a, alone(200*time.Millisecond))
		h = append(h, hammer(300*time.Millisecond))
		p = append(p, pingpong())
		r = append(r, calls(2, 200*time.Millisecond)/calls(1, 200*time.Millisecond))
	}
	fmt.Printf("alone %.1f ns an add; two hammering %.1f ns an add (both); ping-pong %.1f ns a hand-over; a call with one add, 2 threads over 1: %.2f (median of 7, interleaved)\n", median(a), median(h), median(p), median(r))
	fmt.Println("alone", a, "\nhammer", h, "\npingpong", p, "\ncalls", r)
}

// sweep times, interleaved, rounds times over, a call of each kind and
// length: at 1 thread and at each of threads, with the shared add and
// without it, and the transfer probe beside; it prints each length's
// medians, and what the add costs a call at each of threads over at 1.
func sweep(threads []int) {
	const rounds, d = 5, 150 * time.Millisecond
	lengths := []int{2, 5, 10, 20, 40, 80, 160}
	counts := append([]int{1}, threads...)
	type key struct {
		loads   bool
		work, n int
	}
	var (
		alone, with = map[key][]float64{}, map[key][]float64{}
		probes      []float64
	)
	for range rounds {
		for _, loads := range []bool{false, true} {
			for _, work := range lengths {
				for _, n := range counts {
					k := key{loads, work, n}
					alone[k] = append(alone[k], perCall(n, call{work: work, loads: loads}, d))
					with[k] = append(with[k], perCall(n, call{work: work, loads: loads, shared: true}, d))
				}
				if t, ok := harness.Transfer(); ok {
					probes = append(probes, float64(t.Nanoseconds()))
				}
			}
		}
	}
	printProbes(probes)
	columns := func(what string) string {
		c := what + ": 1 thread"
		for _, n := range threads {
			c += fmt.Sprintf(", %d threads", n)
		}
		return c
	}
	var at []string
	for _, n := range threads {
		at = append(at, fmt.Sprintf("at %d", n))
	}
	fmt.Printf("local work  steps  %s   %s   the add %s threads, ns a call\n", columns("no add"), columns("one shared add"), strings.Join(at, ", "))
	for _, loads := range []bool{false, true} {
		kind := "multiplies"
		if loads {
			kind = "reads"
		}
		for _, work := range lengths {
			fmt.Printf("%-10s  %5d", kind, work)
			for _, m := range []map[key][]float64{alone, with} {
				for _, n := range counts {
					fmt.Printf("  %7.1f", median(m[key{loads, work, n}]))
				}
				fmt.Print("   ")
			}
			for _, n := range threads {
				fmt.Printf("  %7.1f", median(with[key{loads, work, n}])-median(with[key{loads, work, 1}]))
			}
			fmt.Println()
		}
	}
}

// threadCounts parses -threads as perfrun's -threads is parsed
// (harness.ParseThreads), each count above 1: the sweep times 1 thread
// anyway.
func threadCounts(list string) ([]int, error) {
	threads, err := harness.ParseThreads(list)
	if err != nil {
		return nil, err
	}
	if slices.Min(threads) < 2 {
		return nil, fmt.Errorf("-threads %q: each count must be 2 or more (1 thread is timed anyway)", list)
	}
	return threads, nil
}

// seconds times, interleaved, rounds times over, calls of reads with one
// shared add and with a second (call.second), at 1 and 2 threads, and
// prints what the adds cost a call at 2 threads (medians).
func seconds() {
	const rounds, d = 5, 150 * time.Millisecond
	lengths := []int{5, 20, 80}
	kinds := []struct {
		second int
		what   string
	}{{noSecond, "one add"}, {sameLine, "two adds, one line"}, {otherLine, "two adds, two lines"}, {otherLater, "two lines, work between"}}
	one, two := map[[2]int][]float64{}, map[[2]int][]float64{}
	var probes []float64
	for range rounds {
		for _, work := range lengths {
			for _, k := range kinds {
				c := call{work: work, loads: true, shared: true, second: k.second}
				key := [2]int{work, k.second}
				one[key] = append(one[key], perCall(1, c, d))
				two[key] = append(two[key], perCall(2, c, d))
			}
			if t, ok := harness.Transfer(); ok {
				probes = append(probes, float64(t.Nanoseconds()))
			}
		}
	}
	printProbes(probes)
	fmt.Println("reads  call                      1 thread  2 threads  the adds at 2 threads, ns a call")
	for _, work := range lengths {
		for _, k := range kinds {
			key := [2]int{work, k.second}
			fmt.Printf("%5d  %-24s  %8.1f  %9.1f  %8.1f\n", work, k.what, median(one[key]), median(two[key]), median(two[key])-median(one[key]))
		}
	}
}

// printProbes prints what the transfer probes beside a program's calls
// read.
func printProbes(probes []float64) {
	fmt.Printf("the transfer probe: median %.0f ns a line (%d probes, %.0f to %.0f)\n", median(probes), len(probes), slices.Min(probes), slices.Max(probes))
}

// median is the middle of v, which it sorts.
func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
