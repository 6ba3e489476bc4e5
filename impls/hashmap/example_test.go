package hashmap_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/hashmap"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Objects builds the flat list from the table on every call: a fresh
// slice, a snapshot of one moment, the caller'\”s to keep.
func ExampleNew() {
	c, _ := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	var s store.Store = hashmap.New()
	added, _ := s.Add(c.Objects()...)
	snapshot := s.Objects()
	s.Add(c.Hits[0].Cert) // later adds do not reach the snapshot
	fmt.Println(len(snapshot) == added, s.Len() == added+1)
	// Output: true true
}
