package storetest

import (
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
	"github.com/perfrun/perfrun/store/corpus"
)

// testIssuerAllocs checks that a warm Issuer lookup, hit or miss, allocates
// nothing: lookups are the hot path of every TLS handshake.
func testIssuerAllocs(t *testing.T, newStore func() store.Store, dev Deviations) {
	if dev.NoAllocCheck != "" {
		t.Skip(dev.NoAllocCheck)
	}
	c, err := corpus.Cached(corpus.Spec{Seed: 3, CAs: 64, Hits: 16, Misses: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := newStore()
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	ref := dev.reference()
	ref.Add(c.Objects()...)
	leaves := append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...)
	for _, l := range leaves {
		s.Issuer(l.Cert, c.At) // warm: the sorted model sorts on first find
	}
	for _, l := range leaves {
		want, _ := ref.Issuer(l.Cert, c.At)
		allocs := testing.AllocsPerRun(50, func() {
			if got, _ := s.Issuer(l.Cert, c.At); got != want {
				t.Fatalf("Issuer(%v) = %v, want %v", l.Cert, got, want)
			}
		})
		if allocs != 0 {
			t.Fatalf("Issuer(%v) allocates %.1f times per call, want 0", l.Cert, allocs)
		}
	}
}

// longBucket is how many certificates share one subject name in
// testLongBucketAllocs: more than any fixed candidate buffer a model
// might copy into.
const longBucket = 12

// testLongBucketAllocs checks that a lookup among many certificates under
// one name allocates nothing either, and finds the one whose key
// identifier matches, the last added.
func testLongBucketAllocs(t *testing.T, newStore func() store.Store, dev Deviations) {
	if dev.NoAllocCheck != "" {
		t.Skip(dev.NoAllocCheck)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	name := pkix.Name{Organization: []string{"Long Bucket Trust"}, CommonName: "Shared Name CA"}
	var cas []*store.Object
	var key ed25519.PrivateKey
	for i := range longBucket {
		key = certgen.Key(fmt.Sprintf("long-bucket/%d", i))
		o, err := parse(certgen.Cert{Subject: name, Issuer: name, PublicKey: key.Public(), Signer: key,
			Serial: int64(i + 1), NotBefore: at.AddDate(-1, 0, 0), NotAfter: at.AddDate(1, 0, 0),
			IsCA: true, KeyUsage: x509.KeyUsageCertSign, AuthorityKeyID: certgen.KeyID(key.Public())}.DER)
		if err != nil {
			t.Fatal(err)
		}
		cas = append(cas, o)
	}
	leafKey := certgen.Key("long-bucket/leaf")
	leaf, err := parse(certgen.Cert{Subject: pkix.Name{CommonName: "leaf.example.test"}, Issuer: name,
		PublicKey: leafKey.Public(), Signer: key, Serial: 99, NotBefore: at.AddDate(0, -1, 0), NotAfter: at.AddDate(0, 6, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, AuthorityKeyID: certgen.KeyID(key.Public())}.DER)
	if err != nil {
		t.Fatal(err)
	}
	s := newStore()
	if _, err := s.Add(cas...); err != nil {
		t.Fatal(err)
	}
	s.Issuer(leaf, at) // warm
	allocs := testing.AllocsPerRun(50, func() {
		if got, _ := s.Issuer(leaf, at); got != cas[longBucket-1] {
			t.Fatalf("Issuer among %d under one name = %v, want the last added", longBucket, got)
		}
	})
	if allocs != 0 {
		t.Fatalf("Issuer among %d certificates under one name allocates %.1f times per call, want 0", longBucket, allocs)
	}
}

func parse(der func() ([]byte, error)) (*store.Object, error) {
	b, err := der()
	if err != nil {
		return nil, err
	}
	return store.ParseCertificate(b)
}
