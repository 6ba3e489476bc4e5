package sorted_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, sorted.New) }

// countingLock is a mutex that counts how often it is taken.
type countingLock struct {
	sync.Mutex
	taken atomic.Int64
}

func (l *countingLock) Lock() {
	l.Mutex.Lock()
	l.taken.Add(1)
}

// TestConformanceUnderTheCostLock: with a cost's lock (as cost=real gives
// it), the store still passes the suite, and takes that lock, not its own.
func TestConformanceUnderTheCostLock(t *testing.T) {
	var locks []*countingLock
	var mu sync.Mutex
	storetest.Run(t, func() store.Store {
		s := sorted.New()
		l := &countingLock{}
		s.(store.Costed).SetCost(store.Cost{Lock: l})
		mu.Lock()
		locks = append(locks, l)
		mu.Unlock()
		return s
	})
	var taken int64
	for _, l := range locks {
		taken += l.taken.Load()
	}
	if len(locks) == 0 || taken == 0 {
		t.Fatalf("%d stores took their cost's lock %d times: want it taken", len(locks), taken)
	}
}

// heldLock is a mutex that counts how often it is taken and says whether
// it is held.
type heldLock struct {
	sync.Mutex
	taken int
	held  bool
}

func (l *heldLock) Lock()   { l.Mutex.Lock(); l.taken++; l.held = true }
func (l *heldLock) Unlock() { l.held = false; l.Mutex.Unlock() }

// TestRetryWorkInTheSecondHold: a cost's Retry is done once for each
// lookup that takes the lock again because its first candidate failed,
// while the lock is held, and Inside once for every lookup, also held —
// so a model's held work follows how often a corpus's first candidate
// fails, as 3.0's does.
func TestRetryWorkInTheSecondHold(t *testing.T) {
	c, err := corpus.Cached(corpus.Spec{Seed: 5, CAs: 256, Hits: 256, Misses: 16})
	if err != nil {
		t.Fatal(err)
	}
	s := sorted.New()
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	l := &heldLock{}
	var inside, retry, unheld int
	s.(store.Costed).SetCost(store.Cost{Lock: l,
		Inside: func(*store.Object) {
			inside++
			if !l.held {
				unheld++
			}
		},
		Retry: func(*store.Object) {
			retry++
			if !l.held {
				unheld++
			}
		},
	})
	lookups := 0
	for _, leaf := range append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...) {
		got, _ := s.Issuer(leaf.Cert, c.At)
		if got != leaf.Issuer {
			t.Fatalf("Issuer of %s: wrong answer", leaf.Cert.Subject)
		}
		lookups++
	}
	if unheld != 0 {
		t.Errorf("%d calls of the cost's work outside the lock", unheld)
	}
	if inside != lookups {
		t.Errorf("Inside done %d times in %d lookups: want once a lookup", inside, lookups)
	}
	if retry == 0 || retry != l.taken-lookups {
		t.Errorf("Retry done %d times; the lock taken %d times in %d lookups: want once for each second hold, and some", retry, l.taken, lookups)
	}
}

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, sorted.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, sorted.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, sorted.New) }
