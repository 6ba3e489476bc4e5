package storetest

import (
	"testing"

	"github.com/perfrun/perfrun/store"
)

// testIssuerBatch holds a store's IssuerBatch, where it has one, to its
// Issuer: every leaf of the pool, hit or miss, at every time, in batches
// of several sizes, gets the answer Issuer gives, a miss clearing its
// slot; and a warm batch allocates nothing.
func testIssuerBatch(t *testing.T, newStore func() store.Store, dev Deviations) {
	s := newStore()
	b, ok := s.(store.IssuerBatch)
	if !ok {
		t.Skip("the store has no IssuerBatch: the workloads call Issuer")
	}
	p := newPool(t, 1)
	if _, err := s.Add(p.objs...); err != nil {
		t.Fatal(err)
	}
	out := make([]*store.Object, len(p.leaves))
	for _, at := range p.times {
		for _, size := range []int{1, 7, len(p.leaves)} {
			for lo := 0; lo < len(p.leaves); lo += size {
				certs := p.leaves[lo:min(lo+size, len(p.leaves))]
				got := out[:len(certs)]
				for i := range got {
					got[i] = p.objs[0] // not an issuer of every leaf: must be overwritten
				}
				b.IssuerBatch(certs, at, got)
				for i, c := range certs {
					want, _ := s.Issuer(c, at)
					if got[i] != want {
						t.Fatalf("at %v, batch of %d: IssuerBatch gives %s for %s, Issuer %s", at, size, got[i], c, want)
					}
				}
			}
		}
	}
	if dev.NoAllocCheck != "" {
		return
	}
	at := p.times[0]
	if n := testing.AllocsPerRun(100, func() { b.IssuerBatch(p.leaves, at, out) }); n != 0 {
		t.Errorf("a warm IssuerBatch of %d leaves allocates %v times", len(p.leaves), n)
	}
}
