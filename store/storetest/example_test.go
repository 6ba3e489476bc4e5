package storetest_test

import (
	"fmt"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/store/storetest"
)

// The reference store answers every lookup by the contract's rule; the
// conformance suite and the differential test hold a store to it. A
// store's own test runs the suite with one line:
//
//	func TestConformance(t *testing.T) { storetest.Run(t, func() store.Store { return mystore.New() }) }
func ExampleNewReference() {
	c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 8, Hits: 4, Misses: 2})
	if err != nil {
		panic(err)
	}
	var s store.Store = storetest.NewReference()
	added, _ := s.Add(c.Objects()...)
	fmt.Println(added == len(c.Objects()))
	right := 0
	for _, l := range c.Hits {
		if got, ok := s.Issuer(l.Cert, c.At); ok && got == l.Issuer {
			right++
		}
	}
	fmt.Println(right, "of", len(c.Hits), "issuers found")
	// Output:
	// true
	// 4 of 4 issuers found
}
