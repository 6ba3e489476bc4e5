//go:build openssl

package openssl_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Logf("linked: %s", openssl.Version())
	dev := Deviations
	if raceEnabled {
		dev.NoAllocCheck = "sync.Pool drops a quarter of what it is given under the race detector, " +
			"so a lookup context is sometimes made again; checked without -race"
	}
	storetest.RunDeviating(t, openssl.New, dev)
}

// TestConformanceDefaultPaths: with the lookups of
// X509_STORE_set_default_paths (the system's bundle and hashed directory
// here), the store still answers every lookup of the corpus as its own
// objects say: the default lookups are only asked on a miss, and find
// none of the generated names.
func TestConformanceDefaultPaths(t *testing.T) {
	dev := Deviations
	if raceEnabled {
		dev.NoAllocCheck = "as in TestConformance"
	}
	storetest.RunDeviating(t, openssl.NewDefaultPaths, dev)
}

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, openssl.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, openssl.New) }

// Deviations are real OpenSSL's differences from the contract's rule.
var Deviations = storetest.Deviations{
	IgnoresCAFlags: "X509_STORE_CTX_get1_issuer checks candidates with check_issued " +
		"(names, AKID, signature algorithm), not X509_check_issued: a certificate that is not a CA, " +
		"or whose keyUsage lacks keyCertSign, is still returned as the issuer",
}

// TestDeviationIgnoresCAFlags holds the deviation to what it says: of two
// certificates under the issuer's name with the leaf's AKID, the first
// not a CA, OpenSSL returns the first; the models return the second.
func TestDeviationIgnoresCAFlags(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	name := pkix.Name{Organization: []string{"Deviation"}, CommonName: "Example CA"}
	key := certgen.Key("deviation/ca")
	ca := func(serial int64, isCA bool) *store.Object {
		return parse(t, certgen.Cert{Subject: name, Issuer: name, PublicKey: key.Public(), Signer: key, Serial: serial,
			NotBefore: at.AddDate(-1, 0, 0), NotAfter: at.AddDate(1, 0, 0), IsCA: isCA,
			KeyUsage: x509.KeyUsageCertSign, AuthorityKeyID: certgen.KeyID(key.Public())}.DER)
	}
	notCA, realCA := ca(1, false), ca(2, true)
	leafKey := certgen.Key("deviation/leaf")
	leaf := parse(t, certgen.Cert{Subject: pkix.Name{CommonName: "leaf.example.test"}, Issuer: name,
		PublicKey: leafKey.Public(), Signer: key, Serial: 3, NotBefore: at.AddDate(0, -1, 0), NotAfter: at.AddDate(0, 6, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, AuthorityKeyID: certgen.KeyID(key.Public())}.DER)
	for _, im := range []struct {
		name string
		s    store.Store
		want *store.Object
	}{{"openssl", openssl.New(), notCA}, {"the reference model", storetest.NewReference(), realCA}} {
		if _, err := im.s.Add(notCA, realCA); err != nil {
			t.Fatal(err)
		}
		if got, _ := im.s.Issuer(leaf, at); got != im.want {
			t.Errorf("%s: Issuer = %v, want %v", im.name, got, im.want)
		}
	}
}

func parse(t *testing.T, der func() ([]byte, error)) *store.Object {
	t.Helper()
	b, err := der()
	if err != nil {
		t.Fatal(err)
	}
	o, err := store.ParseCertificate(b)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestDefaultPathsNameTheEnvironment: the paths a default-paths store
// reads, as results name them, follow SSL_CERT_FILE and SSL_CERT_DIR.
func TestDefaultPathsNameTheEnvironment(t *testing.T) {
	t.Setenv("SSL_CERT_FILE", "/nowhere/bundle.pem")
	t.Setenv("SSL_CERT_DIR", "/nowhere/certs")
	if got, want := openssl.DefaultPaths(), "default file /nowhere/bundle.pem, directory /nowhere/certs"; got != want {
		t.Fatalf("DefaultPaths() = %q, want %q", got, want)
	}
}
