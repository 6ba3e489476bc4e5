// Package certgen builds real, deterministic X.509 certificates and CRLs for
// tests and generated corpora.
//
// Every key comes from seeded bytes and every signature is Ed25519, which is
// deterministic, so the same specification gives byte-identical DER on every
// machine. The builder exposes the fields that decide issuer selection in a
// certificate store — subject and issuer names, subject and authority key
// identifiers (including the AKID serial, which crypto/x509 never writes),
// basic constraints, key usage, validity — and nothing else.
//
// Its promise: one description (Cert, CRL, a key's label) gives the same
// DER in every version, and Key, KeyID, Cert and CRL keep their meaning.
package certgen

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"fmt"
	"math/big"
	"time"
)

// Key derives an Ed25519 key from a label; the same label always gives the
// same key.
func Key(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("perfrun key " + label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// ECDSAKey derives a P-256 key from a label. Only its public half is used
// (as a CA key whose type differs from an Ed25519 signature); certificates
// are still signed with Ed25519 keys so the output stays deterministic.
func ECDSAKey(label string) *ecdsa.PrivateKey {
	for i := uint32(0); ; i++ {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], i)
		d := sha256.Sum256(append([]byte("perfrun ecdsa "+label), b[:]...))
		k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d[:])
		if err == nil {
			return k
		}
	}
}

// KeyID is the subject key identifier certgen uses for a public key: the
// first 20 bytes of the SHA-256 of its PKIX encoding.
func KeyID(pub crypto.PublicKey) []byte {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		panic(err) // only Ed25519 and ECDSA keys reach here
	}
	h := sha256.Sum256(der)
	return h[:20]
}

// Cert describes one certificate.
type Cert struct {
	Subject pkix.Name
	// RawSubject, when set, is used verbatim instead of Subject (to control
	// string types such as BMPString or T61String).
	RawSubject []byte
	Issuer     pkix.Name
	RawIssuer  []byte
	PublicKey  crypto.PublicKey
	Signer     ed25519.PrivateKey
	Serial     int64
	NotBefore  time.Time
	NotAfter   time.Time
	IsCA       bool
	// KeyUsage zero means the extension is absent.
	KeyUsage x509.KeyUsage
	// SubjectKeyID nil lets certgen derive one for CAs with KeyID; leaves get none.
	SubjectKeyID []byte
	// AuthorityKeyID and AuthoritySerial fill the AKID extension; both nil
	// leaves it out.
	AuthorityKeyID  []byte
	AuthoritySerial *big.Int
}

type authorityKeyID struct {
	ID     []byte        `asn1:"optional,tag:0"`
	Issuer asn1.RawValue `asn1:"optional,tag:1"`
	Serial *big.Int      `asn1:"optional,tag:2"`
}

var oidAuthorityKeyID = asn1.ObjectIdentifier{2, 5, 29, 35}

// DER signs the certificate.
func (c Cert) DER() ([]byte, error) {
	skid := c.SubjectKeyID
	if skid == nil && c.IsCA {
		skid = KeyID(c.PublicKey)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(c.Serial),
		Subject:               c.Subject,
		RawSubject:            c.RawSubject,
		NotBefore:             c.NotBefore,
		NotAfter:              c.NotAfter,
		BasicConstraintsValid: true,
		IsCA:                  c.IsCA,
		KeyUsage:              c.KeyUsage,
		SubjectKeyId:          skid,
	}
	if c.AuthorityKeyID != nil || c.AuthoritySerial != nil {
		v := authorityKeyID{ID: c.AuthorityKeyID, Serial: c.AuthoritySerial}
		if c.AuthoritySerial != nil {
			// RFC 5280 wants issuer and serial together; the issuer is a
			// directoryName GeneralName holding the issuer's issuer name.
			name, err := c.issuerDER()
			if err != nil {
				return nil, err
			}
			dir, err := asn1.Marshal(asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 4, IsCompound: true, Bytes: name})
			if err != nil {
				return nil, err
			}
			v.Issuer = asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 1, IsCompound: true, Bytes: dir}
		}
		val, err := asn1.Marshal(v)
		if err != nil {
			return nil, err
		}
		tmpl.ExtraExtensions = []pkix.Extension{{Id: oidAuthorityKeyID, Value: val}}
	}
	// A parent without a key ID keeps crypto/x509 from writing its own AKID.
	parent := &x509.Certificate{Subject: c.Issuer, RawSubject: c.RawIssuer}
	der, err := x509.CreateCertificate(zeroReader{}, tmpl, parent, c.PublicKey, c.Signer)
	if err != nil {
		return nil, fmt.Errorf("certgen: %w", err)
	}
	return der, nil
}

func (c Cert) issuerDER() ([]byte, error) {
	if c.RawIssuer != nil {
		return c.RawIssuer, nil
	}
	return asn1.Marshal(c.Issuer.ToRDNSequence())
}

// CRL describes one certificate revocation list.
type CRL struct {
	Issuer    pkix.Name
	RawIssuer []byte
	// IssuerKeyID becomes the CRL's AKID.
	IssuerKeyID []byte
	Signer      ed25519.PrivateKey
	Number      int64
	ThisUpdate  time.Time
	NextUpdate  time.Time
	Revoked     []int64
}

// DER signs the CRL.
func (c CRL) DER() ([]byte, error) {
	issuer := &x509.Certificate{
		Subject:      c.Issuer,
		RawSubject:   c.RawIssuer,
		KeyUsage:     x509.KeyUsageCRLSign,
		SubjectKeyId: c.IssuerKeyID,
	}
	tmpl := &x509.RevocationList{
		Number:     big.NewInt(c.Number),
		ThisUpdate: c.ThisUpdate,
		NextUpdate: c.NextUpdate,
	}
	for _, s := range c.Revoked {
		tmpl.RevokedCertificateEntries = append(tmpl.RevokedCertificateEntries,
			x509.RevocationListEntry{SerialNumber: big.NewInt(s), RevocationTime: c.ThisUpdate})
	}
	der, err := x509.CreateRevocationList(zeroReader{}, tmpl, issuer, c.Signer)
	if err != nil {
		return nil, fmt.Errorf("certgen: %w", err)
	}
	return der, nil
}

// zeroReader stands in for crypto/rand: Ed25519 signing reads no randomness,
// and a fixed stream keeps any other read deterministic too.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
