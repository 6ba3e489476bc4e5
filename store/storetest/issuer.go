package storetest

import (
	"crypto/x509"
	"math/big"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// issuerCase is one issuer-selection scenario: CAs added in order, a leaf
// looked up at a time, and the index of the CA a correct store returns
// (-1: none).
type issuerCase struct {
	name  string
	build func(f *fixture) (cas []certgen.Cert, leaf certgen.Cert)
	at    time.Time // zero means the fixture time
	want  int
	// caFlags marks a case about the CA and keyCertSign flags (see
	// Deviations.IgnoresCAFlags).
	caFlags bool
}

// pair returns two CAs named "Example CA" with key A, each changed by its
// modifier, and a leaf issued by key A.
func pair(mod0, mod1 func(*certgen.Cert)) func(f *fixture) ([]certgen.Cert, certgen.Cert) {
	return func(f *fixture) ([]certgen.Cert, certgen.Cert) {
		a, b := f.caSpec("Example CA", "A"), f.caSpec("Example CA", "A")
		if mod0 != nil {
			mod0(&a)
		}
		if mod1 != nil {
			mod1(&b)
		}
		return []certgen.Cert{a, b}, f.leafSpec("Example CA", "A")
	}
}

func expiredOn(t time.Time) func(*certgen.Cert) {
	return func(c *certgen.Cert) { c.NotBefore, c.NotAfter = t.Add(-300*day), t }
}

func issuerCases() []issuerCase {
	return []issuerCase{
		{name: "first valid in insertion order", build: pair(nil, nil), want: 0},
		{name: "expired first, valid second", build: pair(expiredOn(at.Add(-day)), nil), want: 1},
		{name: "not yet valid first", build: pair(func(c *certgen.Cert) { c.NotBefore = at.Add(day) }, nil), want: 1},
		{name: "all expired: latest notAfter", build: pair(expiredOn(at.Add(-9*day)), expiredOn(at.Add(-2*day))), want: 1},
		{name: "all expired: latest notAfter first", build: pair(expiredOn(at.Add(-2*day)), expiredOn(at.Add(-9*day))), want: 0},
		{name: "all expired: tie keeps first", build: pair(expiredOn(at.Add(-2*day)), expiredOn(at.Add(-2*day))), want: 0},
		{name: "lookup time decides", build: pair(expiredOn(at.Add(-day)), nil), at: at.Add(-30 * day), want: 0},
		{name: "not a CA", build: pair(func(c *certgen.Cert) { c.IsCA = false }, nil), want: 1, caFlags: true},
		{name: "keyUsage without keyCertSign", build: pair(func(c *certgen.Cert) { c.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign }, nil), want: 1, caFlags: true},
		{name: "no CA may sign", build: pair(func(c *certgen.Cert) { c.IsCA = false }, func(c *certgen.Cert) { c.KeyUsage = x509.KeyUsageCRLSign }), want: -1, caFlags: true},
		{name: "AKID keyid against SKID", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			return []certgen.Cert{f.caSpec("Example CA", "A"), f.caSpec("Example CA", "B")}, f.leafSpec("Example CA", "B")
		}, want: 1},
		{name: "AKID keyid matches none", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			return []certgen.Cert{f.caSpec("Example CA", "A"), f.caSpec("Example CA", "B")}, f.leafSpec("Example CA", "C")
		}, want: -1},
		{name: "no AKID: any key passes", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			leaf := f.leafSpec("Example CA", "B")
			leaf.AuthorityKeyID = nil
			return []certgen.Cert{f.caSpec("Example CA", "A"), f.caSpec("Example CA", "B")}, leaf
		}, want: 0},
		{name: "AKID serial", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			a, b := f.caSpec("Example CA", "A"), f.caSpec("Example CA", "A")
			leaf := f.leafSpec("Example CA", "A")
			leaf.AuthoritySerial = big.NewInt(b.Serial)
			return []certgen.Cert{a, b}, leaf
		}, want: 1},
		{name: "AKID serial matches none", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			leaf := f.leafSpec("Example CA", "A")
			leaf.AuthoritySerial = big.NewInt(999999)
			return []certgen.Cert{f.caSpec("Example CA", "A")}, leaf
		}, want: -1},
		{name: "signature algorithm against key type", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			ec := f.caSpec("Example CA", "A")
			ec.PublicKey = ecdsaPublic("storetest")
			ec.SubjectKeyID = []byte("ecdsa")
			leaf := f.leafSpec("Example CA", "A")
			leaf.AuthorityKeyID = nil
			return []certgen.Cert{ec, f.caSpec("Example CA", "A")}, leaf
		}, want: 1},
		{name: "canonical name: case and whitespace", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			ca := f.caSpec("  Example   CA ", "A")
			ca.Subject.Organization = []string{"CONFORMANCE"}
			return []certgen.Cert{ca}, f.leafSpec("example ca", "A")
		}, want: 0},
		{name: "different name", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			return []certgen.Cert{f.caSpec("Example CA", "A")}, f.leafSpec("Example CA 2", "A")
		}, want: -1},
		{name: "issuer elsewhere in the store", build: func(f *fixture) ([]certgen.Cert, certgen.Cert) {
			return []certgen.Cert{f.caSpec("Other CA", "B"), f.caSpec("Example CA", "A"), f.caSpec("Zeta CA", "C")}, f.leafSpec("Example CA", "A")
		}, want: 1},
	}
}

func testIssuerSelection(t *testing.T, newStore func() store.Store, dev Deviations) {
	for _, tc := range issuerCases() {
		t.Run(tc.name, func(t *testing.T) {
			if tc.caFlags && dev.IgnoresCAFlags != "" {
				t.Skipf("documented deviation: %s", dev.IgnoresCAFlags)
			}
			f := &fixture{t: t}
			specs, leafSpec := tc.build(f)
			var cas []*store.Object
			for _, s := range specs {
				cas = append(cas, f.cert(s))
			}
			leaf := f.cert(leafSpec)
			when := tc.at
			if when.IsZero() {
				when = at
			}
			s := newStore()
			// A CRL under the issuer's name must never be returned.
			crl := f.crl("Example CA", "A", 1)
			if _, err := s.Add(crl); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Add(cas...); err != nil {
				t.Fatal(err)
			}
			got, ok := s.Issuer(leaf, when)
			switch {
			case tc.want < 0 && ok:
				t.Fatalf("Issuer = %v, want none", got)
			case tc.want >= 0 && !ok:
				t.Fatalf("Issuer found none, want CA %d", tc.want)
			case tc.want >= 0 && got != cas[tc.want]:
				t.Fatalf("Issuer = CA %d, want CA %d", index(cas, got), tc.want)
			}
			// The reference model must agree, so the differential test
			// compares against the right thing.
			ref := NewReference()
			ref.Add(crl)
			ref.Add(cas...)
			if rgot, _ := ref.Issuer(leaf, when); rgot != got {
				t.Fatalf("reference Issuer = CA %d, store says CA %d", index(cas, rgot), index(cas, got))
			}
		})
	}
}

func index(list []*store.Object, o *store.Object) int {
	for i, x := range list {
		if x == o {
			return i
		}
	}
	return -1
}

// testCanonicalNames checks name matching through a store: spellings that
// differ in case and whitespace are one name, and order is (length, bytes).
func testCanonicalNames(t *testing.T, newStore func() store.Store) {
	f := &fixture{t: t}
	spell := []string{"Example CA", "example ca", "EXAMPLE CA", "  Example CA", "Example CA  ", "Example \t  CA"}
	var objs []*store.Object
	for i, cn := range spell {
		s := f.caSpec(cn, "A")
		s.Serial = int64(100 + i)
		objs = append(objs, f.cert(s))
	}
	other := f.cert(f.caSpec("Example CB", "A"))
	s := newStore()
	if _, err := s.Add(append(objs, other)...); err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		if o.Subject != objs[0].Subject {
			t.Errorf("spelling %q: canonical name differs from %q", spell[i], spell[0])
		}
	}
	got := s.BySubject(store.Cert, objs[0].Subject)
	if len(got) != len(objs) {
		t.Fatalf("BySubject found %d certificates for the spellings of one name, want %d", len(got), len(objs))
	}
	for i := range got {
		if got[i] != objs[i] {
			t.Fatalf("BySubject[%d] is not the %d-th inserted (insertion order lost)", i, i)
		}
	}
	if o := s.BySubject(store.Cert, other.Subject); len(o) != 1 || o[0] != other {
		t.Fatalf("BySubject(Example CB) = %v, want only that certificate", o)
	}
	short, long := store.Name("\x31\x00"), store.Name("\x30\x00\x00")
	if store.CompareNames(short, long) >= 0 || store.CompareNames(long, short) <= 0 {
		t.Error("CompareNames does not order by length first")
	}
	if store.CompareNames("\x30\x01", "\x30\x02") >= 0 || store.CompareNames("\x30\x01", "\x30\x01") != 0 {
		t.Error("CompareNames does not order equal lengths by bytes")
	}

}
