package sorted_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Adding the same objects again adds none: a duplicate is skipped, not
// an error (the first Add's sort-on-find is what 3.0 pays for).
func ExampleNew() {
	c, _ := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	var s store.Store = sorted.New()
	first, _ := s.Add(c.Objects()...)
	again, err := s.Add(c.Objects()...)
	fmt.Println(first == s.Len(), again, err)
	// Output: true 0 <nil>
}
