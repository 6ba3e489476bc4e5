package sortoninsert_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/sortoninsert"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// BySubject finds the certificates under one canonical name in the
// sorted slice: here a leaf's issuer, by the leaf's issuer name.
func ExampleNew() {
	c, _ := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	var s store.Store = sortoninsert.New()
	s.Add(c.Objects()...)
	leaf := c.Hits[0]
	found := s.BySubject(store.Cert, leaf.Cert.Issuer)
	fmt.Println(len(found) > 0, found[0].Subject == leaf.Issuer.Subject)
	// Output: true true
}
