package storetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
	"github.com/perfrun/perfrun/store/corpus"
)

// pool is what random operations draw from: a small generated corpus (with
// re-keyed, cross-signed, expired and decoy CAs) plus extra CRL versions.
type pool struct {
	c      *corpus.Corpus
	objs   []*store.Object // CAs and CRLs, including the extra versions
	crlsOf map[store.Name][]*store.Object
	names  []store.Name
	leaves []*store.Object
	times  []time.Time
	// replace is whether the store under test has ReplaceCRLs.
	replace bool
}

func newPool(t testing.TB, seed uint64) *pool {
	t.Helper()
	c, err := corpus.Cached(corpus.Spec{Seed: seed, CAs: 48, Hits: 40, Misses: 6})
	if err != nil {
		t.Fatal(err)
	}
	p := &pool{c: c, crlsOf: make(map[store.Name][]*store.Object)}
	p.objs = c.Objects()
	for _, crl := range c.CRLs {
		p.crlsOf[crl.Subject] = append(p.crlsOf[crl.Subject], crl)
		p.names = append(p.names, crl.Subject)
	}
	// A second CRL version for every issuer.
	for _, crl := range c.CRLs {
		v2 := newCRLVersion(t, crl, 2)
		p.crlsOf[crl.Subject] = append(p.crlsOf[crl.Subject], v2)
		p.objs = append(p.objs, v2)
	}
	for _, l := range append(slices.Clone(c.Hits), c.Misses...) {
		p.leaves = append(p.leaves, l.Cert)
	}
	year := 365 * day
	p.times = []time.Time{c.At, c.At.Add(-3 * year), c.At.Add(3 * year), c.At.Add(-9 * year)}
	return p
}

// testDifferential runs long random sequences of operations on the store
// and on the reference, comparing every answer.
func testDifferential(t *testing.T, newStore func() store.Store, dev Deviations) {
	ops := 3000
	if testing.Short() {
		ops = 600
	}
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			p := newPool(t, seed)
			p.replace = replaces(newStore)
			r := rand.New(rand.NewPCG(seed, 0xd1ff))
			s, ref := newStore(), dev.reference()
			for i := range ops {
				if err := p.step(r, s, ref); err != nil {
					t.Fatalf("operation %d: %v", i, err)
				}
			}
		})
	}
}

// step performs one random operation on both stores and compares.
func (p *pool) step(r *rand.Rand, s store.Store, ref *Reference) error {
	switch k := r.IntN(100); {
	case k < 30:
		batch := make([]*store.Object, 1+r.IntN(4))
		for i := range batch {
			batch[i] = p.objs[r.IntN(len(p.objs))]
		}
		n, err := s.Add(batch...)
		rn, _ := ref.Add(batch...)
		if err != nil || n != rn {
			return fmt.Errorf("Add(%v) = %d, %v; reference added %d", batch, n, err, rn)
		}
	case k < 40 && p.replace:
		name := p.names[r.IntN(len(p.names))]
		all := p.crlsOf[name]
		var crls []*store.Object
		for _, c := range all {
			if r.IntN(2) == 0 {
				crls = append(crls, c)
			}
		}
		n, err := s.ReplaceCRLs(name, crls...)
		rn, _ := ref.ReplaceCRLs(name, crls...)
		if err != nil || n != rn {
			return fmt.Errorf("ReplaceCRLs(%d CRLs) = %d, %v; reference removed %d", len(crls), n, err, rn)
		}
	case k < 85:
		leaf := p.leaves[r.IntN(len(p.leaves))]
		when := p.times[r.IntN(len(p.times))]
		got, ok := s.Issuer(leaf, when)
		want, wok := ref.Issuer(leaf, when)
		if got != want || ok != wok {
			return fmt.Errorf("Issuer(%v, %v) = %v, %v; reference %v, %v", leaf, when, got, ok, want, wok)
		}
	case k < 93:
		kind := store.Kind(r.IntN(2))
		name := p.names[r.IntN(len(p.names))]
		if got, want := s.BySubject(kind, name), ref.BySubject(kind, name); !slices.Equal(got, want) {
			return fmt.Errorf("BySubject(%v) = %v; reference %v", kind, got, want)
		}
	case k < 97:
		if got, want := s.Objects(), ref.Objects(); !sameObjects(got, want) {
			return fmt.Errorf("Objects has %d objects; reference %d, or they differ", len(got), len(want))
		}
	default:
		if got, want := s.Len(), ref.Len(); got != want {
			return fmt.Errorf("Len = %d; reference %d", got, want)
		}
	}
	return nil
}

// newCRLVersion returns another CRL of the same issuer as crl, with a new
// number, as a CRL reload would bring.
func newCRLVersion(t testing.TB, crl *store.Object, number int64) *store.Object {
	t.Helper()
	der, err := certgen.CRL{
		RawIssuer: crl.RevocationList.RawIssuer, IssuerKeyID: crl.AuthorityKeyID,
		Signer: certgen.Key("storetest/crl-signer"), Number: number,
		ThisUpdate: crl.NotBefore.Add(time.Hour), NextUpdate: crl.NotAfter.Add(time.Hour),
	}.DER()
	if err != nil {
		t.Fatal(err)
	}
	v, err := store.ParseCRL(der)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
