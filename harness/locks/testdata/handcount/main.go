// Handcount is a store whose lock profile is known by hand: each
// operation holds one lock around a call to an assembly function of a
// known number of instructions, and some do a known number of atomics.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/store/ownlock"
)

// work100 and work300 execute 101 and 299 instructions, their RET
// included (work_amd64.s).
func work100()
func work300()

// ownLock is a spin lock of the program's own, reported to lock profiles
// as the real stores' C locks and the cost profiles' futex lock are.
type ownLock struct{ held atomic.Bool }

func (l *ownLock) Lock() {
	for !l.held.CompareAndSwap(false, true) {
	}
	ownlock.Acquired(unsafe.Pointer(l))
}

func (l *ownLock) Unlock() {
	ownlock.Releasing(unsafe.Pointer(l))
	l.held.Store(false)
}

var emptyOwn ownLock

func init() {
	ownlock.RegisterEmpty(func(n int) {
		for range n {
			emptyOwn.Lock()
			emptyOwn.Unlock()
		}
	})
}

// shard is a read/write lock and a counter alone on a cache line (the
// array below is aligned by its first element's allocation, a multiple of
// 64 bytes: its size class).
type shard struct {
	rw sync.RWMutex
	n  atomic.Int64
	_  [32]byte
}

func main() {
	var shards [16]shard
	var next int
	var own ownLock
	var mu, other sync.Mutex
	var rw sync.RWMutex
	var counter atomic.Int64
	ops := map[string]func(){
		"mutex100": func() { mu.Lock(); work100(); mu.Unlock() },
		"mutex300": func() { mu.Lock(); work300(); mu.Unlock() },
		"write100": func() { rw.Lock(); work100(); rw.Unlock() },
		"read100": func() {
			rw.RLock()
			work100()
			rw.RUnlock()
			counter.Add(1)
			counter.Add(1)
			counter.Add(1)
		},
		"own100": func() { own.Lock(); work100(); own.Unlock() },
		// Two locks: a Mutex around work100 twice, the other around work300.
		"two": func() {
			mu.Lock()
			work100()
			mu.Unlock()
			other.Lock()
			work300()
			other.Unlock()
			mu.Lock()
			work100()
			mu.Unlock()
		},
		"free": func() { work100() },
		// A read lock taken again after work outside it.
		"retake": func() {
			rw.RLock()
			work100()
			rw.RUnlock()
			work100()
			rw.RLock()
			rw.RUnlock()
		},
		// A write lock tried while this thread holds a read lock: the try
		// fails on the reader count, and the work is done under the read
		// lock.
		"tryunder": func() {
			rw.RLock()
			if rw.TryLock() {
				panic("TryLock succeeded under a read lock")
			}
			work100()
			rw.RUnlock()
		},
		// A read lock of one of 16 shards in turn, each on a line of its
		// own; beside it a counter of the shard's, or one of all.
		"shards": func() {
			sh := &shards[next%16]
			next++
			sh.rw.RLock()
			work100()
			sh.rw.RUnlock()
		},
		"shards-counter": func() {
			sh := &shards[next%16]
			next++
			sh.rw.RLock()
			work100()
			sh.rw.RUnlock()
			sh.n.Add(1)
		},
		"shards-global": func() {
			sh := &shards[next%16]
			next++
			sh.rw.RLock()
			work100()
			sh.rw.RUnlock()
			counter.Add(1)
		},
	}
	op, ok := ops[os.Args[1]]
	n, err := strconv.Atoi(os.Args[2])
	if !ok || err != nil {
		fmt.Fprintln(os.Stderr, "usage: handcount VARIANT OPS")
		os.Exit(2)
	}
	err = locks.Run(func(n int) error {
		for range n {
			op()
		}
		return nil
	}, n, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
