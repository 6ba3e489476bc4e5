package rcu_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// A lookup loads one snapshot and takes no lock: the leaf'\”s issuer is
// found, and a leaf whose issuer the store lacks finds none.
func ExampleNew() {
	c, _ := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	var s store.Store = rcu.New()
	s.Add(c.Objects()...)
	got, ok := s.Issuer(c.Hits[0].Cert, c.At)
	_, miss := s.Issuer(c.Misses[0].Cert, c.At)
	fmt.Println(ok && got == c.Hits[0].Issuer, miss)
	// Output: true false
}
