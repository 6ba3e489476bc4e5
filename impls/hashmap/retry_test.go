package hashmap_test

import (
	"testing"

	"github.com/perfrun/perfrun/impls/hashmap"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// TestRetryWhenTheFirstCandidateFails: a cost's Retry is done once for
// each lookup whose first candidate (in the store's order) is not the
// issuer at the corpus's time, and for no other — the read lock taken
// again as 4.0 takes it — while every answer stays right; without Retry
// the store takes no second hold.
func TestRetryWhenTheFirstCandidateFails(t *testing.T) {
	c, err := corpus.Cached(corpus.Spec{Seed: 5, CAs: 256, Hits: 256, Misses: 16})
	if err != nil {
		t.Fatal(err)
	}
	s := hashmap.New()
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	var inside, retry int
	s.(store.Costed).SetCost(store.Cost{Inside: func(*store.Object) { inside++ }, Retry: func(*store.Object) { retry++ }})
	want, lookups := 0, 0
	for _, leaf := range append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...) {
		if got, _ := s.Issuer(leaf.Cert, c.At); got != leaf.Issuer {
			t.Fatalf("Issuer of %s: wrong answer", leaf.Cert.Subject)
		}
		lookups++
		if cands := s.BySubject(store.Cert, leaf.Cert.Issuer); len(cands) > 0 && !(store.CheckIssued(leaf.Cert, cands[0]) && store.TimeValid(cands[0], c.At)) {
			want++
		}
	}
	if inside != lookups || retry != want || want == 0 {
		t.Errorf("%d lookups: Inside %d times, Retry %d times; want %d and %d (and some)", lookups, inside, retry, lookups, want)
	}
}
