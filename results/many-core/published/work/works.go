package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/store"
)

// A work is one published benchmark's operation, done once a lookup.
type work struct {
	name, what string
	op         func(*shared)
}

// shared is what the threads of a benchmark share, each field on a line
// of its own as the benchmarks lay them out.
type shared struct {
	counter atomic.Int64
	_       [56]byte
	rw      sync.RWMutex
	_       [40]byte
	mu      sync.Mutex
	value   int
	_       [48]byte
	spin    rwSpin
	_       [60]byte
}

// rwSpin is a reader-writer spin lock on one word, as folly's RWSpinLock
// is: a reader adds its unit to the word, backs out where a writer holds
// it, and takes its unit off to give it back.
type rwSpin struct{ bits atomic.Int32 }

const (
	spinWriter = 1
	spinReader = 4
)

func (l *rwSpin) RLock() {
	for l.bits.Add(spinReader)&spinWriter != 0 {
		l.bits.Add(-spinReader)
		runtime.Gosched()
	}
}

func (l *rwSpin) RUnlock() { l.bits.Add(-spinReader) }

// works are the operations, in the published tables' names.
var works = []work{
	{"xsync-atomic", "xsync's AtomicInt64: one atomic add to one counter", func(s *shared) {
		s.counter.Add(1)
	}},
	{"xsync-rwmutex", "xsync's RWMutexWorkWrite100000, its reads: 100 multiply-divides under a sync.RWMutex read lock", func(s *shared) {
		s.rw.RLock()
		spin(100)
		s.rw.RUnlock()
	}},
	{"folly-mutex", "folly's pthrd_mutex_ all_write: a mutex taken to add one to the value it guards", func(s *shared) {
		s.mu.Lock()
		s.value++
		s.mu.Unlock()
	}},
	{"folly-rwlock-reads", "folly's pthrd_rwlock_reads: the guarded value read under a read lock", func(s *shared) {
		s.rw.RLock()
		runtime.KeepAlive(s.value)
		s.rw.RUnlock()
	}},
	{"folly-rwspin-reads", "folly's folly_rwspin_reads: the guarded value read under RWSpinLock's read lock", func(s *shared) {
		s.spin.RLock()
		runtime.KeepAlive(s.value)
		s.spin.RUnlock()
	}},
}

// spin is xsync's local work: n multiply-divides of a value nothing else
// reads.
//
//go:noinline
func spin(n int) int {
	foo := n
	for range n {
		foo *= 2
		foo /= 2
	}
	return foo
}

// workStore is rcu's store whose every lookup first does the work.
type workStore struct {
	store.Store
	op func(*shared)
	s  *shared
}

func (w work) store() store.Store {
	return &workStore{Store: rcu.New(), op: w.op, s: new(shared)}
}

func (w *workStore) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	w.op(w.s)
	return w.Store.Issuer(cert, at)
}
