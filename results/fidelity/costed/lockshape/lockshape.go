//go:build ignore

// lockshape.go is lockshape.c in Go, with the locks the sorted model's
// cost profile uses (workloads/cost.go): the store lock a futex lock that
// sleeps at once, as glibc's does, and the shared lock a sync.RWMutex
// taken for reading. It tells whether the model's locks scale as glibc's
// do in the same shape.
//
//	go run results/fidelity/costed/lockshape/lockshape.go THREADS H1 H2 OUT SHARED
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// futexLock is workloads' sleepLock: 0 free, 1 held, 2 held with sleepers.
type futexLock struct{ state atomic.Uint32 }

func (l *futexLock) Lock() {
	if l.state.CompareAndSwap(0, 1) {
		return
	}
	for l.state.Swap(2) != 0 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&l.state)), 0|128, 2, 0, 0, 0)
	}
}

func (l *futexLock) Unlock() {
	if l.state.Swap(0) == 2 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&l.state)), 1|128, 1, 0, 0, 0)
	}
}

// locks holds each lock on lines of its own (a struct keeps the order).
var locks struct {
	_      [128]byte
	store  futexLock
	_      [128]byte
	shared sync.RWMutex
	_      [128]byte
}

var h1, h2, out, pieces int

var sink atomic.Uint64

func burn(n int) {
	var h uint64 = 1469598103934665603
	for i := range n {
		h = (h ^ uint64(i)) * 1099511628211
	}
	if h == 0 { // never: a store on every call would bounce sink's line
		sink.Store(h)
	}
}

func hold(n int) {
	locks.store.Lock()
	burn(n)
	locks.store.Unlock()
}

// outside does k of the pieces of the outside work.
func outside(k int) {
	if pieces == 0 {
		burn(out / 2)
		return
	}
	for range k {
		locks.shared.RLock()
		burn(out / pieces)
		locks.shared.RUnlock()
	}
}

func main() {
	args := make([]int, 5)
	for i := range args {
		if len(os.Args) != 6 {
			break
		}
		args[i], _ = strconv.Atoi(os.Args[i+1])
	}
	threads := args[0]
	if threads < 1 || threads > 64 {
		fmt.Fprintln(os.Stderr, "usage: lockshape THREADS H1 H2 OUT SHARED")
		os.Exit(1)
	}
	h1, h2, out, pieces = args[1], args[2], args[3], args[4]
	calls := make([]int64, threads*16) // a line apart
	var wg sync.WaitGroup
	for i := range threads {
		wg.Go(func() {
			end := time.Now().Add(time.Second)
			var n int64
			for {
				for range 64 {
					hold(h1)
					outside(pieces / 2)
					hold(h2)
					outside(pieces - pieces/2)
				}
				n += 64
				if !time.Now().Before(end) {
					break
				}
			}
			calls[i*16] = n
		})
	}
	wg.Wait()
	var total int64
	for i := range threads {
		total += calls[i*16]
	}
	fmt.Printf("%d threads: %.1f ns/call\n", threads, 1e9*float64(threads)/float64(total))
}
