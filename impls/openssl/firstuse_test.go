//go:build openssl

package openssl_test

import (
	"sync"
	"testing"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// TestConcurrentFirstUse: two threads look up the same certificates, none
// used before, at once. OpenSSL caches a certificate's extensions on its
// first use, and in 4.0.2 two threads doing that for one certificate at
// once can free what the other reads (openssl/openssl#32609), which
// crashes the process; the store caches them when it parses a
// certificate, before any lookup can see it.
func TestConcurrentFirstUse(t *testing.T) {
	for seed := uint64(0x1f5e); seed < 0x1f5e+4; seed++ {
		co, err := corpus.Generate(corpus.Spec{Seed: seed, CAs: 256, Hits: 256})
		if err != nil {
			t.Fatal(err)
		}
		s := openssl.New()
		if _, err := s.Add(co.Objects()...); err != nil {
			t.Fatal(err)
		}
		certs := make([]*store.Object, len(co.Hits))
		for i, l := range co.Hits {
			certs[i] = l.Cert
		}
		b := s.(store.IssuerBatch)
		var start, done sync.WaitGroup
		start.Add(1)
		outs := make([][]*store.Object, 2)
		for w := range outs {
			outs[w] = make([]*store.Object, len(certs))
			done.Go(func() {
				start.Wait()
				for i := range certs {
					b.IssuerBatch(certs[i:i+1], corpus.DefaultAt, outs[w][i:i+1])
				}
			})
		}
		start.Done()
		done.Wait()
		for i, l := range co.Hits {
			for w := range outs {
				if outs[w][i] == nil {
					t.Fatalf("seed %#x: worker %d found no issuer for %v", seed, w, l.Cert)
				}
			}
		}
	}
}
