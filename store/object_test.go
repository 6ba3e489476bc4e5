package store_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

func TestParseCertificateFields(t *testing.T) {
	k, issuerKey := certgen.Key("object-test"), certgen.Key("object-test-issuer")
	nb := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	der, err := certgen.Cert{
		Subject: pkix.Name{CommonName: "Sub  CA"}, Issuer: pkix.Name{CommonName: "ROOT"},
		PublicKey: k.Public(), Signer: issuerKey, Serial: 42, NotBefore: nb, NotAfter: nb.AddDate(1, 0, 0),
		IsCA: true, KeyUsage: x509.KeyUsageCRLSign,
		AuthorityKeyID: []byte{1, 2, 3}, AuthoritySerial: big.NewInt(7),
	}.DER()
	if err != nil {
		t.Fatal(err)
	}
	o, err := store.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := store.CanonicalName(mustMarshalName(t, pkix.Name{CommonName: "root"}))
	switch {
	case o.Kind != store.Cert || o.Issuer != root:
		t.Errorf("kind %v, issuer %x; want cert issued by %x", o.Kind, o.Issuer, root)
	case !o.IsCA || o.CanSignCerts:
		t.Errorf("IsCA %v CanSignCerts %v; want a CA whose key usage forbids cert signing", o.IsCA, o.CanSignCerts)
	case o.AuthoritySerial == nil || o.AuthoritySerial.Int64() != 7 || string(o.AuthorityKeyID) != "\x01\x02\x03":
		t.Errorf("AKID %x serial %v; want 010203 and 7", o.AuthorityKeyID, o.AuthoritySerial)
	case o.Serial.Int64() != 42 || !o.NotBefore.Equal(nb):
		t.Errorf("serial %v notBefore %v", o.Serial, o.NotBefore)
	case o.SignedWith != x509.Ed25519 || o.KeyType != x509.Ed25519:
		t.Errorf("SignedWith %v KeyType %v; want Ed25519", o.SignedWith, o.KeyType)
	}
	if _, err := store.ParseCertificate(der[:len(der)-3]); err == nil {
		t.Error("truncated certificate parsed")
	}
	if _, err := store.ParseCRL(der); err == nil {
		t.Error("a certificate parsed as a CRL")
	}
}

func mustMarshalName(t *testing.T, n pkix.Name) []byte {
	t.Helper()
	der, err := certgen.Cert{Subject: n, Issuer: n, PublicKey: certgen.Key("x").Public(), Signer: certgen.Key("x"),
		Serial: 1, NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1e9, 0)}.DER()
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c.RawSubject
}
