package store

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"math/big"
	"sync/atomic"
	"time"
	"unique"
)

// Kind tells certificates from CRLs, like X509_LU_X509 and X509_LU_CRL.
type Kind uint8

const (
	Cert Kind = iota
	CRL
)

func (k Kind) String() string {
	switch k {
	case Cert:
		return "cert"
	case CRL:
		return "crl"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Object is a certificate or a CRL with everything a store needs to index
// it and to select issuers computed once, at parse time. It is immutable:
// stores share *Object values between goroutines without copying.
type Object struct {
	Kind Kind
	DER  []byte
	// Subject is the canonical subject name; for a CRL, its issuer name,
	// since that is what CRLs are looked up by.
	Subject Name
	// Issuer is the canonical issuer name.
	Issuer Name
	// Label is a readable subject for messages.
	Label string

	SubjectKeyID   []byte
	AuthorityKeyID []byte
	// AuthoritySerial is the AKID authorityCertSerialNumber, nil if absent.
	AuthoritySerial *big.Int
	Serial          *big.Int
	NotBefore       time.Time // a CRL's thisUpdate
	NotAfter        time.Time // a CRL's nextUpdate (zero if absent)

	// IsCA is basicConstraints cA; CanSignCerts is false only when a
	// keyUsage extension is present without keyCertSign.
	IsCA         bool
	CanSignCerts bool
	// SignedWith is the key type the signature algorithm needs; KeyType is
	// the type of the object's own public key (certificates only).
	SignedWith x509.PublicKeyAlgorithm
	KeyType    x509.PublicKeyAlgorithm

	// Fingerprint is the SHA-256 of DER; equal fingerprints are duplicates.
	Fingerprint [32]byte
	// SubjectHash and IssuerHash are HashName of Subject and Issuer,
	// computed once here so that no lookup hashes a name.
	SubjectHash, IssuerHash uint64
	// SubjectID and IssuerID are Subject and Issuer interned: equal names
	// have equal IDs, so a hashed model confirms a key with one word
	// instead of comparing ~100 bytes it would first have to fetch (that
	// compare was a third of a warm rcu lookup).
	SubjectID, IssuerID unique.Handle[Name]

	Certificate    *x509.Certificate    // nil for a CRL
	RevocationList *x509.RevocationList // nil for a certificate

	// refs counts the references a store handed out and took back, as
	// OpenSSL counts them in every X509 (UpRef, DownRef): each is an
	// atomic write to the object's own line.
	refs atomic.Int32
}

// UpRef takes a reference to o, as X509_up_ref does.
func (o *Object) UpRef() { o.refs.Add(1) }

// DownRef gives back a reference UpRef took, as X509_free does.
func (o *Object) DownRef() { o.refs.Add(-1) }

// Refs is how many references to o are taken and not given back.
func (o *Object) Refs() int32 { return o.refs.Load() }

func (o *Object) String() string {
	return fmt.Sprintf("%s %q (sha256 %x)", o.Kind, o.Label, o.Fingerprint[:6])
}

// ParseCertificate parses one DER certificate.
func ParseCertificate(der []byte) (*Object, error) {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	subject, err := CanonicalName(c.RawSubject)
	if err != nil {
		return nil, fmt.Errorf("subject: %w", err)
	}
	issuer, err := CanonicalName(c.RawIssuer)
	if err != nil {
		return nil, fmt.Errorf("issuer: %w", err)
	}
	o := &Object{
		Kind:           Cert,
		DER:            c.Raw,
		Subject:        subject,
		Issuer:         issuer,
		Label:          c.Subject.String(),
		SubjectKeyID:   c.SubjectKeyId,
		AuthorityKeyID: c.AuthorityKeyId,
		Serial:         c.SerialNumber,
		NotBefore:      c.NotBefore,
		NotAfter:       c.NotAfter,
		IsCA:           c.BasicConstraintsValid && c.IsCA,
		CanSignCerts:   c.KeyUsage == 0 || c.KeyUsage&x509.KeyUsageCertSign != 0,
		SignedWith:     keyTypeOf(c.SignatureAlgorithm),
		KeyType:        c.PublicKeyAlgorithm,
		Fingerprint:    sha256.Sum256(c.Raw),
		Certificate:    c,
	}
	if o.AuthoritySerial, err = akidSerial(c); err != nil {
		return nil, err
	}
	o.SubjectHash, o.IssuerHash = HashName(subject), HashName(issuer)
	o.SubjectID, o.IssuerID = unique.Make(subject), unique.Make(issuer)
	return o, nil
}

// ParseCRL parses one DER certificate revocation list.
func ParseCRL(der []byte) (*Object, error) {
	l, err := x509.ParseRevocationList(der)
	if err != nil {
		return nil, err
	}
	issuer, err := CanonicalName(l.RawIssuer)
	if err != nil {
		return nil, fmt.Errorf("issuer: %w", err)
	}
	h, id := HashName(issuer), unique.Make(issuer)
	return &Object{
		SubjectHash:    h,
		IssuerHash:     h,
		SubjectID:      id,
		IssuerID:       id,
		Kind:           CRL,
		DER:            l.Raw,
		Subject:        issuer,
		Issuer:         issuer,
		Label:          l.Issuer.String(),
		AuthorityKeyID: l.AuthorityKeyId,
		Serial:         l.Number,
		NotBefore:      l.ThisUpdate,
		NotAfter:       l.NextUpdate,
		SignedWith:     keyTypeOf(l.SignatureAlgorithm),
		Fingerprint:    sha256.Sum256(l.Raw),
		RevocationList: l,
	}, nil
}

var oidAuthorityKeyID = asn1.ObjectIdentifier{2, 5, 29, 35}

// akidSerial reads authorityCertSerialNumber, which crypto/x509 does not
// expose.
func akidSerial(c *x509.Certificate) (*big.Int, error) {
	for _, e := range c.Extensions {
		if !e.Id.Equal(oidAuthorityKeyID) {
			continue
		}
		var v struct {
			ID     []byte        `asn1:"optional,tag:0"`
			Issuer asn1.RawValue `asn1:"optional,tag:1"`
			Serial *big.Int      `asn1:"optional,tag:2"`
		}
		if _, err := asn1.Unmarshal(e.Value, &v); err != nil {
			return nil, fmt.Errorf("authority key identifier: %w", err)
		}
		return v.Serial, nil
	}
	return nil, nil
}

// keyTypeOf maps a signature algorithm to the key type that can make it.
func keyTypeOf(alg x509.SignatureAlgorithm) x509.PublicKeyAlgorithm {
	switch alg {
	case x509.MD2WithRSA, x509.MD5WithRSA, x509.SHA1WithRSA, x509.SHA256WithRSA,
		x509.SHA384WithRSA, x509.SHA512WithRSA,
		x509.SHA256WithRSAPSS, x509.SHA384WithRSAPSS, x509.SHA512WithRSAPSS:
		return x509.RSA
	case x509.DSAWithSHA1, x509.DSAWithSHA256:
		return x509.DSA
	case x509.ECDSAWithSHA1, x509.ECDSAWithSHA256, x509.ECDSAWithSHA384, x509.ECDSAWithSHA512:
		return x509.ECDSA
	case x509.PureEd25519:
		return x509.Ed25519
	}
	return x509.UnknownPublicKeyAlgorithm
}
