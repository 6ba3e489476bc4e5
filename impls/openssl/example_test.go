//go:build openssl

package openssl_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// The real store answers as every model must: each leaf'\”s issuer, the
// one the corpus expects, through X509_STORE_CTX_get1_issuer.
func ExampleNew() {
	c, _ := corpus.Cached(corpus.Spec{Seed: 1, CAs: 32, Hits: 8, Misses: 2})
	var s store.Store = openssl.New()
	s.Add(c.Objects()...)
	byContract, byOpenSSL := 0, 0
	for _, l := range c.Hits {
		got, _ := s.Issuer(l.Cert, c.At)
		want, _ := c.ExpectedBy(store.IgnoresCAFlags, l.Cert)
		if got == l.Issuer {
			byContract++
		}
		if got == want {
			byOpenSSL++
		}
	}
	fmt.Println(byContract, "by the contract's rule,", byOpenSSL, "by OpenSSL's, of", len(c.Hits))
	// Output: 7 by the contract's rule, 8 by OpenSSL's, of 8
}
