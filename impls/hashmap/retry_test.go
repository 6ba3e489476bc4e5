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

// TestRefsAsFourDotZero: with the real store's reference counts
// (store.Cost.Refs), a lookup hands its first object out with a reference
// taken while its work outside the lock runs, and every lookup gives back
// every reference it took; without them no count moves.
func TestRefsAsFourDotZero(t *testing.T) {
	c, err := corpus.Cached(corpus.Spec{Seed: 5, CAs: 256, Hits: 256, Misses: 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, refs := range []bool{true, false} {
		s := hashmap.New()
		if _, err := s.Add(c.Objects()...); err != nil {
			t.Fatal(err)
		}
		var first *store.Object
		held, looked := 0, 0
		s.(store.Costed).SetCost(store.Cost{Refs: refs, Retry: func(*store.Object) {},
			Outside: func(*store.Object) {
				if first != nil && first.Refs() == 1 {
					held++
				}
			}})
		for _, leaf := range append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...) {
			first = nil
			if cands := s.BySubject(store.Cert, leaf.Cert.Issuer); len(cands) > 0 {
				first = cands[0]
				looked++
			}
			if got, _ := s.Issuer(leaf.Cert, c.At); got != leaf.Issuer {
				t.Fatalf("Issuer of %s: wrong answer", leaf.Cert.Subject)
			}
		}
		for _, o := range c.Objects() {
			if o.Refs() != 0 {
				t.Fatalf("refs %v: %s keeps %d references after every lookup returned", refs, o, o.Refs())
			}
		}
		if want := map[bool]int{true: looked, false: 0}[refs]; held != want || looked == 0 {
			t.Errorf("refs %v: the first object held a reference outside the lock in %d of %d lookups that found one, want %d", refs, held, looked, want)
		}
	}
}
