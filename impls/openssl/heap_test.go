//go:build openssl

package openssl_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store/corpus"
)

// BenchmarkLoadedHeap reports the C heap a loaded store holds per object
// (C-B/object: the X509_STORE and its index, not the X509s, which are
// parsed before the store is made and kept by the process) at the load
// workload's sizes:
//
//	go test -tags openssl -run '^$' -bench LoadedHeap ./impls/openssl
func BenchmarkLoadedHeap(b *testing.B) {
	for _, n := range []int{128, 1024, 16384} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: n})
			if err != nil {
				b.Fatal(err)
			}
			// Parse every object once, outside the measured store.
			warm := openssl.New()
			if _, err := warm.Add(c.CAs...); err != nil {
				b.Fatal(err)
			}
			var perObject float64
			for range b.N {
				settle()
				before := openssl.CHeap()
				s := openssl.New()
				if _, err := s.Add(c.CAs...); err != nil {
					b.Fatal(err)
				}
				perObject = float64(openssl.CHeap()-before) / float64(n)
				runtime.KeepAlive(s)
			}
			runtime.KeepAlive(warm)
			b.ReportMetric(perObject, "C-B/object")
		})
	}
}

// settle lets the stores of earlier iterations go: a store's C memory is
// freed by a cleanup that runs after the collection that finds it.
func settle() {
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
}
