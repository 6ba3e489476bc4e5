package rcu_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/store/corpus"
)

// A store filled from a generated corpus answers every leaf's issuer
// lookup with the issuer the corpus expects, and none for a leaf whose
// issuer it does not hold.
func ExampleNew() {
	c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	if err != nil {
		panic(err)
	}
	s := rcu.New()
	added, err := s.Add(c.Objects()...)
	if err != nil {
		panic(err)
	}
	right := 0
	for _, l := range c.Hits {
		if got, ok := s.Issuer(l.Cert, c.At); ok && got == l.Issuer {
			right++
		}
	}
	_, found := s.Issuer(c.Misses[0].Cert, c.At)
	fmt.Println(added == s.Len(), right, "of", len(c.Hits), "issuers found; a miss found:", found)
	// Output:
	// true 8 of 8 issuers found; a miss found: false
}
