//go:build openssl

package openssl_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// major is the linked OpenSSL's major version: 3 or 4.
func major(t *testing.T) int {
	var m int
	if _, err := fmt.Sscanf(openssl.Version(), "OpenSSL %d.", &m); err != nil {
		t.Fatalf("version %q: %v", openssl.Version(), err)
	}
	return m
}

var orderAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// selfSigned is a CA named cn with its own key (seed), valid around orderAt.
func selfSigned(t *testing.T, cn, seed string, serial int64) *store.Object {
	name := pkix.Name{Organization: []string{"Order"}, CommonName: cn}
	key := certgen.Key(seed)
	return parse(t, certgen.Cert{Subject: name, Issuer: name, PublicKey: key.Public(), Signer: key, Serial: serial,
		NotBefore: orderAt.AddDate(-1, 0, 0), NotAfter: orderAt.AddDate(1, 0, 0), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, SubjectKeyID: certgen.KeyID(key.Public())}.DER)
}

func names(objs []*store.Object) string {
	var s []string
	for _, o := range objs {
		s = append(s, o.String())
	}
	return strings.Join(s, ", ")
}

// TestLibraryOrder states how each version lays its store out, which
// Objects hides by putting insertion order back. 3.0 appends, and the
// next search of the stack sorts it by name — the lazily sorted stack of
// the public discussions — and every add searches it for a duplicate first, so the
// stack is sorted but for the object added last until the next lookup.
// 4.0 lists its hash table, and a lookup changes nothing.
func TestLibraryOrder(t *testing.T) {
	s := openssl.New().(*openssl.Store)
	var added []*store.Object
	for i := 5; i >= 0; i-- { // names in descending order
		o := selfSigned(t, fmt.Sprintf("Order CA %d", i), fmt.Sprintf("order/%d", i), int64(i+1))
		added = append(added, o)
	}
	if _, err := s.Add(added...); err != nil {
		t.Fatal(err)
	}
	before := s.LibraryOrder()
	s.Issuer(added[0], orderAt)
	after := s.LibraryOrder()
	if got := s.Objects(); !slices.Equal(got, added) {
		t.Fatalf("Objects is not insertion order: %s", names(got))
	}
	sorted := slices.Clone(added)
	slices.Reverse(sorted)
	t.Logf("%s: before a lookup %s; after %s", openssl.Version(), names(before), names(after))
	switch major(t) {
	case 3:
		last := len(added) - 1
		wantBefore := append(slices.Clone(sorted[1:]), added[last])
		if !slices.Equal(before, wantBefore) || !slices.Equal(after, sorted) {
			t.Errorf("3.x: want name order but the last added, then name order after a lookup")
		}
	case 4:
		if !slices.Equal(before, after) || len(after) != len(added) {
			t.Errorf("4.x: a lookup reordered the hash table's listing")
		}
	}
}

// TestCertsBySubjectOrder: X509_STORE_CTX_get1_certs of three CAs under
// one name, added in order. The contract's BySubject is insertion order
// (the wrapper restores it from Objects); what the library itself lists
// is stated per version.
func TestCertsBySubjectOrder(t *testing.T) {
	s := openssl.New().(*openssl.Store)
	var added []*store.Object
	for i, seed := range []string{"same/c", "same/a", "same/b"} {
		added = append(added, selfSigned(t, "Same Name CA", seed, int64(10+i)))
	}
	if _, err := s.Add(added...); err != nil {
		t.Fatal(err)
	}
	got, err := s.CertsBySubject(added[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: get1_certs %s (added %s)", openssl.Version(), names(got), names(added))
	if !slices.Equal(s.BySubject(store.Cert, added[0].Subject), added) {
		t.Errorf("BySubject is not insertion order")
	}
	if len(got) != len(added) {
		t.Errorf("get1_certs listed %d of the %d certificates under the name", len(got), len(added))
	}
}
