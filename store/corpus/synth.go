package corpus

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

// SyntheticLeaves is what a loaded corpus's Source says when perfrun made
// its leaves: a CA bundle holds none, and the issuer workload needs them.
const SyntheticLeaves = "leaves made by perfrun"

// synthesizeLeaves makes, for a corpus without end-entity certificates,
// one leaf per CA — its issuer the CA's subject as encoded, its AKID the
// CA's SKID, signed with a throwaway key of the CA's key type (issuer
// lookup never verifies signatures, but it does match the signature
// algorithm against the issuer's key type) — and misses under names no
// CA has, one for every 16 CAs (at least 8).
func synthesizeLeaves(c *Corpus) ([]*store.Object, error) {
	var leaves []*store.Object
	for i, ca := range c.CAs {
		signer, err := throwawayKey(ca.KeyType)
		if err != nil {
			continue // a key type perfrun cannot sign with: no leaf for it
		}
		parent := &x509.Certificate{RawSubject: ca.Certificate.RawSubject, SubjectKeyId: ca.SubjectKeyID}
		o, err := makeLeaf(c.At, i, parent, signer)
		if err != nil {
			return nil, fmt.Errorf("corpus: a leaf under %s: %w", ca.Label, err)
		}
		leaves = append(leaves, o)
	}
	signer, err := throwawayKey(x509.Ed25519)
	if err != nil {
		return nil, err
	}
	for i := range max(8, len(c.CAs)/16) {
		absent := &x509.Certificate{Subject: pkix.Name{Organization: []string{"Nowhere Trust"}, CommonName: fmt.Sprintf("Absent Issuing CA %d", i)}}
		o, err := makeLeaf(c.At, len(c.CAs)+i, absent, signer)
		if err != nil {
			return nil, err
		}
		leaves = append(leaves, o)
	}
	return leaves, nil
}

func makeLeaf(at time.Time, i int, parent *x509.Certificate, signer crypto.Signer) (*store.Object, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(int64(i) + 1),
		Subject:      pkix.Name{CommonName: fmt.Sprintf("leaf%d.perfrun.invalid", i)},
		NotBefore:    at.Add(-30 * 24 * time.Hour),
		NotAfter:     at.Add(300 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, signer.Public(), signer)
	if err != nil {
		return nil, err
	}
	return store.ParseCertificate(der)
}

var throwaway struct {
	sync.Mutex
	keys map[x509.PublicKeyAlgorithm]crypto.Signer
}

// throwawayKey returns one key per key type for the process.
func throwawayKey(alg x509.PublicKeyAlgorithm) (crypto.Signer, error) {
	throwaway.Lock()
	defer throwaway.Unlock()
	if k, ok := throwaway.keys[alg]; ok {
		return k, nil
	}
	var k crypto.Signer
	var err error
	switch alg {
	case x509.RSA:
		k, err = rsa.GenerateKey(rand.Reader, 2048)
	case x509.ECDSA:
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case x509.Ed25519:
		_, k, err = ed25519.GenerateKey(rand.Reader)
	default:
		err = fmt.Errorf("no throwaway key for %v", alg)
	}
	if err != nil {
		return nil, err
	}
	if throwaway.keys == nil {
		throwaway.keys = make(map[x509.PublicKeyAlgorithm]crypto.Signer)
	}
	throwaway.keys[alg] = k
	return k, nil
}
