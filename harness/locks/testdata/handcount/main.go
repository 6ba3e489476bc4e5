// Handcount is a store whose lock profile is known by hand: each
// operation holds one lock around a call to an assembly function of a
// known number of instructions, and some do a known number of atomics.
package main

import (
	"fmt"
	"log"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sync/singleflight"

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

// spinLock is a spin lock on a word of sync/atomic's that reports
// nothing: a profile tells it by its word, taken by a compare-and-swap and
// given back by a store.
type spinLock struct{ word atomic.Int32 }

func (l *spinLock) Lock() {
	for !l.word.CompareAndSwap(0, 1) {
	}
}

func (l *spinLock) Unlock() { l.word.Store(0) }

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

// stripe is a Mutex alone on a cache line: one of 64 that split a lock.
type stripe struct {
	sync.Mutex
	_ [56]byte
}

// guarded is a Mutex and a word beside it, alone on a cache line (a
// heap object of 64 bytes, its size class's alignment).
type guarded struct {
	mu   sync.Mutex
	flag atomic.Int32
	_    [52]byte
}

// flagLine is a word alone on a cache line, as guarded.
type flagLine struct {
	flag atomic.Int64
	_    [56]byte
}

// counter is a writer that is not io.Discard: log.Logger locks its
// writer for it.
type counter struct{ n int }

func (c *counter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

var (
	shards  [16]shard
	stripes [64]stripe
	next    int
	own     ownLock
	spin    spinLock
	cas     atomic.Int64
	mu      sync.Mutex
	other   sync.Mutex
	rw      sync.RWMutex
	count   atomic.Int64
	logger  = log.New(&counter{}, "", 0)
	once    singleflight.Group
	queue   = make(chan int, 1)
	pool    = sync.Pool{New: func() any { return new([64]byte) }}
	guard   = new(guarded)
	seen    = new(flagLine)
	unseen  = new(flagLine)
)

// ops are the variants, by name.
var ops = map[string]func(){
	"mutex100": func() { mu.Lock(); work100(); mu.Unlock() },
	"mutex300": func() { mu.Lock(); work300(); mu.Unlock() },
	"write100": func() { rw.Lock(); work100(); rw.Unlock() },
	"read100": func() {
		rw.RLock()
		work100()
		rw.RUnlock()
		count.Add(1)
		count.Add(1)
		count.Add(1)
	},
	"own100":  func() { own.Lock(); work100(); own.Unlock() },
	"spin100": func() { spin.Lock(); work100(); spin.Unlock() },
	// A counter added to by a compare-and-swap, never given back: a
	// line, no lock.
	"casadd": func() {
		for v := cas.Load(); !cas.CompareAndSwap(v, v+1); v = cas.Load() {
		}
		work100()
	},
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
	// A word read by every operation and written by one in four, after
	// its read.
	"readflag": func() {
		next++
		if seen.flag.Load() >= 0 && next%4 == 0 {
			seen.flag.Add(1)
		}
		work100()
	},
	// A word read before the Mutex on its line is taken.
	"readlocked": func() {
		if guard.flag.Load() == 0 {
			guard.mu.Lock()
			work100()
			guard.mu.Unlock()
		}
	},
	// A read-write lock taken exclusively by one operation in four,
	// shared by the rest.
	"writer4": func() {
		next++
		if next%4 == 0 {
			rw.Lock()
			work100()
			rw.Unlock()
			return
		}
		rw.RLock()
		work100()
		rw.RUnlock()
	},
	// A word read and never written.
	"readonly": func() { _ = unseen.flag.Load(); work100() },
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
	"shards":         func() { shardRead() },
	"shards-counter": func() { shardRead().n.Add(1) },
	"shards-global":  func() { shardRead(); count.Add(1) },
	// The shard's counter written just before its read lock is taken.
	"shards-first": func() {
		sh := &shards[next%16]
		sh.n.Add(1)
		shardRead()
	},
	// One of 64 Mutex stripes in turn around work100, and beside it
	// work300 under a Mutex of its own.
	"stripes": func() {
		s := &stripes[next%64]
		next++
		s.Lock()
		work100()
		s.Unlock()
		other.Lock()
		work300()
		other.Unlock()
	},
	// A line through a logger whose writer is not io.Discard: the
	// standard library's log takes a Mutex of its own for it.
	"log": func() { logger.Print("x") },
	// A call through another module's lock (golang.org/x/sync's
	// singleflight takes its Mutex twice).
	"module": func() { once.Do("k", func() (any, error) { return nil, nil }) },
	// A Mutex around work100 on one operation in 250.
	"rare250": func() {
		next++
		if next%250 == 0 {
			mu.Lock()
			work100()
			mu.Unlock()
		}
	},
	// A buffer from a sync.Pool, with a collection every 64 operations:
	// the Pool's slow path takes its registry's lock after each.
	"pool": func() {
		next++
		if next%64 == 0 {
			runtime.GC()
		}
		pool.Put(pool.Get())
	},
	// The environment read through the standard library, which takes a
	// read lock of its own (syscall's).
	"getenv": func() { _ = os.Getenv("PERFRUN_HANDCOUNT") },
	// A channel's send and receive: the runtime's lock, which no hook sees.
	"chan": func() { queue <- 1; <-queue },
}

// shardRead reads work100 under the read lock of the next of 16 shards.
func shardRead() *shard {
	sh := &shards[next%16]
	next++
	sh.rw.RLock()
	work100()
	sh.rw.RUnlock()
	return sh
}

func main() {
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
