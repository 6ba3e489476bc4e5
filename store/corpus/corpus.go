// Package corpus provides the certificates that workloads run on: a
// deterministic generated corpus of real X.509 (generate.go) or one loaded
// from PEM/DER files (load.go), and the expected issuer of every leaf.
//
// Both kinds end in the same Corpus value, so every workload runs unchanged
// on either. Expected issuers are computed once, here, with
// store.SelectIssuer over the CA certificates in insertion order; workloads
// compare every store answer with them.
//
// Its promise: results files and histories name a corpus by its digest, and
// the gate refuses files of different corpora, so a Spec generates the same
// objects, byte for byte, from one version to the next; a change to the
// generator is named in the release that makes it. Generate, Cached, Load,
// ParsePEM and Corpus keep their meaning.
package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/perfrun/perfrun/store"
)

// Corpus is the set of objects a run uses. CAs and CRLs are in insertion
// order; that order decides issuer selection among equal names.
type Corpus struct {
	// At is the verification time for issuer lookups.
	At   time.Time
	CAs  []*store.Object
	CRLs []*store.Object
	// Hits are leaves whose issuer is in CAs; Misses are leaves whose issuer
	// name is absent.
	Hits   []Leaf
	Misses []Leaf
	// Source says where the corpus came from (a spec or a path).
	Source string
	// Duplicates counts objects a loaded corpus listed again (same
	// fingerprint) and kept once.
	Duplicates int
	// Digest identifies the corpus content (see ComputeDigest).
	Digest string
	// loaded is set for a corpus read from files, whose time is when it
	// was read.
	loaded bool

	// byName indexes CAs by subject, in insertion order; built once with
	// the expectations and read-only after.
	byName map[store.Name][]*store.Object
	// leaves are Hits' and Misses' certificates in the order they were
	// made and parsed, which a saved corpus keeps.
	leaves []*store.Object
}

// Leaf is an end-entity certificate and the issuer a correct store returns
// for it at Corpus.At (nil for a miss).
type Leaf struct {
	Cert   *store.Object
	Issuer *store.Object
}

// Objects returns the CAs followed by the CRLs, the contents of a full store.
func (c *Corpus) Objects() []*store.Object {
	all := make([]*store.Object, 0, len(c.CAs)+len(c.CRLs))
	return append(append(all, c.CAs...), c.CRLs...)
}

// Expected returns the issuer a correct store holding c.CAs returns for
// cert at c.At, and false if none qualifies.
func (c *Corpus) Expected(cert *store.Object) (*store.Object, bool) {
	return store.SelectIssuer(cert, c.At, c.byName[cert.Issuer])
}

// ExpectedBy is Expected under a store's rule (a real store's documented
// deviation from the contract).
func (c *Corpus) ExpectedBy(rule store.Rule, cert *store.Object) (*store.Object, bool) {
	return store.SelectIssuerBy(rule, cert, c.At, c.byName[cert.Issuer])
}

// expectIssuers indexes the CAs, fills the expected issuer of each leaf and
// splits leaves into hits and misses.
func (c *Corpus) expectIssuers(leaves []*store.Object) {
	c.leaves = leaves
	c.indexCAs()
	c.Hits, c.Misses = nil, nil
	for _, l := range leaves {
		iss, ok := c.Expected(l)
		if ok {
			c.Hits = append(c.Hits, Leaf{l, iss})
		} else {
			c.Misses = append(c.Misses, Leaf{l, nil})
		}
	}
}

// indexCAs indexes the CAs by subject, for Expected.
func (c *Corpus) indexCAs() {
	c.byName = make(map[store.Name][]*store.Object)
	for _, ca := range c.CAs {
		c.byName[ca.Subject] = append(c.byName[ca.Subject], ca)
	}
}

// ComputeDigest sets Digest to a SHA-256 over every object's DER, in
// order, and a generated corpus's time, so two corpora with equal digests
// are the same workload input. A loaded corpus is checked at the time it
// is read, which is not in its digest: the same files read by two
// processes minutes apart are one input, and their runs compare.
func (c *Corpus) ComputeDigest() {
	h := sha256.New()
	var n [8]byte
	if !c.loaded {
		binary.BigEndian.PutUint64(n[:], uint64(c.At.Unix()))
		h.Write(n[:])
	}
	add := func(o *store.Object) {
		binary.BigEndian.PutUint64(n[:], uint64(len(o.DER)))
		h.Write(n[:])
		h.Write(o.DER)
	}
	for _, group := range [][]*store.Object{c.CAs, c.CRLs} {
		for _, o := range group {
			add(o)
		}
	}
	for _, group := range [][]Leaf{c.Hits, c.Misses} {
		for _, l := range group {
			add(l.Cert)
		}
	}
	c.Digest = hex.EncodeToString(h.Sum(nil))[:16]
}
