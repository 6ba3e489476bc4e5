package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// BenchmarkIssuer measures parallel issuer lookups on a full store of about
// a thousand CAs (every answer checked). Use -cpu 1,2 to see how the design
// scales; b.RunParallel runs GOMAXPROCS goroutines.
func BenchmarkIssuer(b *testing.B, newStore func() store.Store) {
	c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 1024, Hits: 1024})
	if err != nil {
		b.Fatal(err)
	}
	s := newStore()
	if _, err := s.Add(c.Objects()...); err != nil {
		b.Fatal(err)
	}
	var worker atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(worker.Add(1)) * 997 // each goroutine its own rotation
		for pb.Next() {
			l := &c.Hits[i%len(c.Hits)]
			if got, _ := s.Issuer(l.Cert, c.At); got != l.Issuer {
				b.Errorf("Issuer(%v) = %v, want %v", l.Cert, got, l.Issuer)
				return
			}
			i++
		}
	})
}

// BenchmarkAdd measures building a store of n CA certificates one Add at a
// time from empty, reported as ns/add.
func BenchmarkAdd(b *testing.B, newStore func() store.Store) {
	for _, n := range []int{1024, 16384} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: n})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				s := newStore()
				for _, o := range c.CAs {
					s.Add(o)
				}
				if s.Len() != n {
					b.Fatalf("Len = %d after adding %d distinct objects", s.Len(), n)
				}
			}
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*n), "ns/add")
		})
	}
}
