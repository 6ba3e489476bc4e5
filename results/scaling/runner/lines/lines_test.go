// Package lines measures what one shared cache line costs a call at two
// threads, by where in the call its writes fall: a write a call, and two
// (a read lock's RLock and RUnlock, or two adds) close together, apart by
// half a call, or apart by nearly all of it. Each call does the same
// local work; only the line's writes move.
//
//	go test -run - -bench . -cpu 1,2 -benchtime 300ms ./scaling/runner/lines
//
// ns/op at -cpu 2 is wall time over both workers' calls: a worker's time
// a call is twice it.
package lines

import (
	"sync"
	"sync/atomic"
	"testing"
)

// lockLine is a read lock alone on its line, ctrLine a counter alone on
// its.
type lockLine struct {
	mu sync.RWMutex
	_  [128]byte
}

type ctrLine struct {
	c atomic.Int64
	_ [128]byte
}

var sink atomic.Uint64

// work is k steps of local work over slots, the same on every thread.
func work(slots []uint64, k int) uint64 {
	var x uint64
	for i := range k {
		x += slots[(i*7)&(len(slots)-1)] * uint64(i)
	}
	return x
}

func bench(b *testing.B, call func(l *lockLine, c *ctrLine, slots []uint64) uint64) {
	l, c := &lockLine{}, &ctrLine{}
	b.RunParallel(func(pb *testing.PB) {
		slots := make([]uint64, 1024)
		var x uint64
		for pb.Next() {
			x += call(l, c, slots)
		}
		sink.Add(x)
	})
}

// BenchmarkNone writes no shared line: the machine's own cost of a second
// thread.
func BenchmarkNone(b *testing.B) {
	bench(b, func(_ *lockLine, _ *ctrLine, s []uint64) uint64 { return work(s, 420) })
}

// BenchmarkAdd1: one write a call.
func BenchmarkAdd1(b *testing.B) {
	bench(b, func(_ *lockLine, c *ctrLine, s []uint64) uint64 {
		c.c.Add(1)
		return work(s, 420)
	})
}

// BenchmarkRWHold0: a read lock taken and given back at once.
func BenchmarkRWHold0(b *testing.B) {
	bench(b, func(l *lockLine, _ *ctrLine, s []uint64) uint64 {
		l.mu.RLock()
		l.mu.RUnlock()
		return work(s, 420)
	})
}

// rwHeld is a call that holds a read lock for held of its 420 steps.
func rwHeld(held int) func(*lockLine, *ctrLine, []uint64) uint64 {
	return func(l *lockLine, _ *ctrLine, s []uint64) uint64 {
		l.mu.RLock()
		x := work(s, held)
		l.mu.RUnlock()
		return x + work(s, 420-held)
	}
}

// BenchmarkRWHold50: a read lock held for half the call.
func BenchmarkRWHold50(b *testing.B) { bench(b, rwHeld(210)) }

// BenchmarkRWHold95: a read lock held for nearly all of it.
func BenchmarkRWHold95(b *testing.B) { bench(b, rwHeld(400)) }

// addsApart is a call that adds to the counter and takes it back apart
// of its 420 steps later.
func addsApart(apart int) func(*lockLine, *ctrLine, []uint64) uint64 {
	return func(_ *lockLine, c *ctrLine, s []uint64) uint64 {
		c.c.Add(1)
		x := work(s, apart)
		c.c.Add(-1)
		return x + work(s, 420-apart)
	}
}

// BenchmarkAdd2Half: two adds half a call apart.
func BenchmarkAdd2Half(b *testing.B) { bench(b, addsApart(210)) }

// BenchmarkAdd2Hold95: two adds nearly a call apart.
func BenchmarkAdd2Hold95(b *testing.B) { bench(b, addsApart(400)) }
