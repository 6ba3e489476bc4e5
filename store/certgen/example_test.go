package certgen_test

import (
	"bytes"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"time"

	"github.com/perfrun/perfrun/store/certgen"
)

// The same description gives the same DER on every machine: keys come
// from labels and Ed25519 signatures are deterministic.
func ExampleCert() {
	key := certgen.Key("example ca")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ca := certgen.Cert{Subject: pkix.Name{Organization: []string{"Example"}, CommonName: "Example CA"},
		Issuer: pkix.Name{Organization: []string{"Example"}, CommonName: "Example CA"}, PublicKey: key.Public(), Signer: key,
		Serial: 1, NotBefore: start, NotAfter: start.AddDate(10, 0, 0), IsCA: true, KeyUsage: x509.KeyUsageCertSign}
	a, err := ca.DER()
	if err != nil {
		panic(err)
	}
	b, _ := ca.DER()
	parsed, err := x509.ParseCertificate(a)
	if err != nil {
		panic(err)
	}
	fmt.Println(bytes.Equal(a, b), parsed.Subject, parsed.IsCA, fmt.Sprintf("%x", parsed.SubjectKeyId) == fmt.Sprintf("%x", certgen.KeyID(key.Public())))
	// Output:
	// true CN=Example CA,O=Example true true
}
