package store_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// SelectIssuer applies OpenSSL's issuer rule to the candidates a store
// found under a certificate's issuer name: here a CA and the leaf it
// signed, parsed from real DER.
func ExampleSelectIssuer() {
	caKey, leafKey := certgen.Key("example ca"), certgen.Key("example leaf")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Example CA"},
		NotBefore: start, NotAfter: start.AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, SubjectKeyId: certgen.KeyID(caKey.Public())}
	caDER, _ := x509.CreateCertificate(nil, caTmpl, caTmpl, caKey.Public(), caKey)
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "www.example.com"},
		NotBefore: start, NotAfter: start.AddDate(1, 0, 0)}
	leafDER, _ := x509.CreateCertificate(nil, leafTmpl, caTmpl, leafKey.Public(), caKey)
	ca, _ := store.ParseCertificate(caDER)
	leaf, _ := store.ParseCertificate(leafDER)

	issuer, ok := store.SelectIssuer(leaf, start.AddDate(0, 6, 0), []*store.Object{ca})
	fmt.Println(ok, issuer.Label)
	_, ok = store.SelectIssuer(leaf, start, []*store.Object{leaf})
	fmt.Println(ok)
	// Output:
	// true CN=Example CA
	// false
}
