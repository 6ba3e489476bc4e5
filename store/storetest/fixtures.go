package storetest

import (
	"crypto"
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// at is the verification time of the hand-made fixtures.
var at = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

// fixture builds small hand-made certificates. Keys are named by label.
type fixture struct {
	t      testing.TB
	serial int64
}

func (f *fixture) key(label string) ed25519.PrivateKey { return certgen.Key("storetest/" + label) }

// caSpec is a valid, self-signed CA named cn with key label.
func (f *fixture) caSpec(cn, label string) certgen.Cert {
	f.serial++
	k := f.key(label)
	name := pkix.Name{Organization: []string{"Conformance"}, CommonName: cn}
	return certgen.Cert{
		Subject: name, Issuer: name, PublicKey: k.Public(), Signer: k,
		Serial: f.serial, NotBefore: at.Add(-365 * day), NotAfter: at.Add(365 * day),
		IsCA: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		AuthorityKeyID: certgen.KeyID(k.Public()),
	}
}

// leafSpec is a leaf issued under the name issuerCN by the key label, with
// an AKID naming that key.
func (f *fixture) leafSpec(issuerCN, label string) certgen.Cert {
	f.serial++
	signer := f.key(label)
	own := f.key(fmt.Sprintf("leaf%d", f.serial))
	return certgen.Cert{
		Subject:   pkix.Name{CommonName: fmt.Sprintf("leaf%d.example.test", f.serial)},
		Issuer:    pkix.Name{Organization: []string{"Conformance"}, CommonName: issuerCN},
		PublicKey: own.Public(), Signer: signer,
		Serial: f.serial, NotBefore: at.Add(-day), NotAfter: at.Add(90 * day),
		AuthorityKeyID: certgen.KeyID(signer.Public()),
	}
}

func (f *fixture) cert(spec certgen.Cert) *store.Object {
	f.t.Helper()
	der, err := spec.DER()
	if err != nil {
		f.t.Fatal(err)
	}
	o, err := store.ParseCertificate(der)
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

func (f *fixture) crl(issuerCN, label string, number int64) *store.Object {
	f.t.Helper()
	k := f.key(label)
	der, err := certgen.CRL{
		Issuer:      pkix.Name{Organization: []string{"Conformance"}, CommonName: issuerCN},
		IssuerKeyID: certgen.KeyID(k.Public()), Signer: k, Number: number,
		ThisUpdate: at.Add(-day), NextUpdate: at.Add(7 * day),
	}.DER()
	if err != nil {
		f.t.Fatal(err)
	}
	o, err := store.ParseCRL(der)
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// ecdsaPublic is a CA key of another type than the Ed25519 signatures.
func ecdsaPublic(label string) crypto.PublicKey { return certgen.ECDSAKey(label).Public() }
