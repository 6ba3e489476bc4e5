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
//	go run ./scaling/runner/occupancy
package main

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
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

// calls: threads goroutines each doing local work and one add to the
// shared counter a call, for d; ns per call of one thread.
func calls(threads int, d time.Duration) float64 {
	return float64(d.Nanoseconds()) * float64(threads) / float64(adds(threads, 40, d))
}

// adds runs threads goroutines for d, each making calls of work steps of
// local work (none: adds alone) and one add to a shared counter, and
// returns the adds they made in all.
func adds(threads, work int, d time.Duration) int64 {
	var c padded
	var stop atomic.Bool
	var wg sync.WaitGroup
	done := make([]int64, threads)
	for i := range threads {
		wg.Go(func() {
			n := int64(0) // a local count: the threads share no line but c's
			for !stop.Load() {
				if work == 0 { // a batch of adds alone, as tight as they go
					for range 64 {
						c.n.Add(1)
					}
				} else {
					for range 64 {
						local(work)
						c.n.Add(1)
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
	runtime.GOMAXPROCS(2)
	var a, h, p, r []float64
	for i := 0; i < 7; i++ {
		a = append(a, alone(200*time.Millisecond))
		h = append(h, hammer(300*time.Millisecond))
		p = append(p, pingpong())
		r = append(r, calls(2, 200*time.Millisecond)/calls(1, 200*time.Millisecond))
	}
	med := func(v []float64) float64 { sort.Float64s(v); return v[len(v)/2] }
	fmt.Printf("alone %.1f ns an add; two hammering %.1f ns an add (both); ping-pong %.1f ns a hand-over; a call with one add, 2 threads over 1: %.2f (median of 7, interleaved)\n", med(a), med(h), med(p), med(r))
	fmt.Println("alone", a, "\nhammer", h, "\npingpong", p, "\ncalls", r)
}
