package storetest

import (
	"testing"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// testIssuerAllocs checks that a warm Issuer lookup, hit or miss, allocates
// nothing: lookups are the hot path of every TLS handshake.
func testIssuerAllocs(t *testing.T, newStore func() store.Store) {
	c, err := corpus.Cached(corpus.Spec{Seed: 3, CAs: 64, Hits: 16, Misses: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := newStore()
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	leaves := append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...)
	for _, l := range leaves {
		s.Issuer(l.Cert, c.At) // warm: the sorted model sorts on first find
	}
	for _, l := range leaves {
		allocs := testing.AllocsPerRun(50, func() {
			if got, _ := s.Issuer(l.Cert, c.At); got != l.Issuer {
				t.Fatalf("Issuer(%v) = %v, want %v", l.Cert, got, l.Issuer)
			}
		})
		if allocs != 0 {
			t.Fatalf("Issuer(%v) allocates %.1f times per call, want 0", l.Cert, allocs)
		}
	}
}
