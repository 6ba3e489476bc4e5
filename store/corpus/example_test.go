package corpus_test

import (
	"fmt"

	"github.com/perfrun/perfrun/store/corpus"
)

// A generated corpus is real X.509, the same bytes on every machine for
// one Spec, with the issuer every leaf must get from a store.
func ExampleGenerate() {
	c, err := corpus.Generate(corpus.Spec{Seed: 1, CAs: 16, Hits: 8, Misses: 4})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(c.CAs), "CAs,", len(c.CRLs), "CRLs,", len(c.Hits), "leaves with an issuer,", len(c.Misses), "without")
	issuer, ok := c.Expected(c.Hits[0].Cert)
	fmt.Println(ok, issuer == c.Hits[0].Issuer)
	_, ok = c.Expected(c.Misses[0].Cert)
	fmt.Println(ok)
	fmt.Println(c.Digest)
	// Output:
	// 16 CAs, 14 CRLs, 8 leaves with an issuer, 4 without
	// true true
	// false
	// 90cfbe5429e1d227
}
