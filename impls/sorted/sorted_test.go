package sorted_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/store"
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

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, sorted.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, sorted.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, sorted.New) }
