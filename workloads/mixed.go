package workloads

import (
	"fmt"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// crlIssuers is how many issuers the mixed writer rotates through.
const crlIssuers = 64

// Mixed is the long-running server that reloads CRLs while it verifies:
// issuer readers as in Issuer, plus one writer that replaces one issuer's CRL
// at a fixed rate (OpenVPN's reload before each connection, made safe).
var Mixed = Workload{
	Name:        "mixed",
	Title:       "Mixed",
	Description: "issuer readers while one writer replaces CRLs at a fixed rate; writer reported separately",
	Params: []Param{certsParam, hitParam,
		{"rate", "100", "CRL replacements per second by the writer", rate, false}, leavesParam},
	CountOps: lookupCount,
	Setup: func(env Env) (*Instance, error) {
		c, s, rot, err := lookupSetup(env)
		if err != nil {
			return nil, err
		}
		versions, err := crlVersions(c.CAs)
		if err != nil {
			return nil, err
		}
		// Start from version 0 of each rotated issuer, so every replacement
		// removes exactly one CRL.
		for _, v := range versions {
			if _, err := s.ReplaceCRLs(v[0].Subject, v[0]); err != nil {
				return nil, err
			}
		}
		next := &padded[int]{}
		write := func() error {
			k := next.v
			v := versions[k%len(versions)]
			crl := v[(k/len(versions)+1)%2]
			next.v++
			if n, err := s.ReplaceCRLs(crl.Subject, crl); err != nil || n != 1 {
				return fmt.Errorf("%s: ReplaceCRLs(%v) removed %d (%v), want exactly 1", env.Impl.Name, crl, n, err)
			}
			return nil
		}
		interval := time.Duration(float64(time.Second) / env.Params.Float("rate"))
		return &Instance{
			Worker:      func(w int) Op { return lookups(env.Impl.Name, s, c.At, rot, start(w, len(rot)), nil) },
			Paced:       []Paced{{Role: "writer", Interval: interval, Op: write}},
			Period:      len(rot),
			BatchTarget: batchTarget(s),
		}, nil
	},
}

// crlVersions makes two CRL versions for each of up to crlIssuers distinct
// CA names, signed by a writer key (signatures are never verified).
func crlVersions(cas []*store.Object) ([][2]*store.Object, error) {
	signer := certgen.Key("mixed-writer")
	seen := make(map[store.Name]bool)
	var out [][2]*store.Object
	for _, ca := range cas {
		if seen[ca.Subject] || len(out) == crlIssuers {
			continue
		}
		seen[ca.Subject] = true
		var pair [2]*store.Object
		for v := range pair {
			der, err := certgen.CRL{
				RawIssuer: ca.Certificate.RawSubject, IssuerKeyID: ca.SubjectKeyID, Signer: signer,
				Number: int64(100 + v), ThisUpdate: ca.NotBefore, NextUpdate: ca.NotBefore.AddDate(0, 0, 7),
			}.DER()
			if err != nil {
				return nil, err
			}
			if pair[v], err = store.ParseCRL(der); err != nil {
				return nil, err
			}
		}
		out = append(out, pair)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mixed: the corpus has no CA to replace CRLs of")
	}
	return out, nil
}
