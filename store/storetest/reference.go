package storetest

import (
	"bytes"
	"slices"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

// Reference is the plain model the differential test compares every
// implementation with: one slice in insertion order, one mutex, linear
// scans. Its issuer rule is written out here again on purpose, independent
// of store.SelectIssuer, so that a mistake in the shared code cannot hide
// behind itself.
type Reference struct {
	mu   sync.Mutex
	objs []*store.Object
	// ignoreCAFlags is OpenSSL's get1_issuer rule (see Deviations).
	ignoreCAFlags bool
}

// NewReference returns an empty reference store.
func NewReference() *Reference { return &Reference{} }

var _ store.Store = (*Reference)(nil)

func (r *Reference) has(o *store.Object) bool {
	for _, x := range r.objs {
		if bytes.Equal(x.DER, o.DER) {
			return true
		}
	}
	return false
}

func (r *Reference) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, o := range objs {
		if !r.has(o) {
			r.objs = append(r.objs, o)
			n++
		}
	}
	return n, nil
}

func (r *Reference) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	before := len(r.objs)
	r.objs = slices.DeleteFunc(r.objs, func(o *store.Object) bool {
		return o.Kind == store.CRL && o.Subject == issuer
	})
	removed := before - len(r.objs)
	for _, o := range crls {
		if !r.has(o) {
			r.objs = append(r.objs, o)
		}
	}
	return removed, nil
}

func (r *Reference) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var fallback *store.Object
	for _, c := range r.objs {
		if c.Kind != store.Cert || c.Subject != cert.Issuer || !referenceIssued(cert, c, r.ignoreCAFlags) {
			continue
		}
		if !at.Before(c.NotBefore) && !at.After(c.NotAfter) {
			return c, true
		}
		if fallback == nil || c.NotAfter.After(fallback.NotAfter) {
			fallback = c
		}
	}
	return fallback, fallback != nil
}

// referenceIssued restates the check_issued rules of the package doc;
// ignoreFlags leaves out the CA and keyCertSign flags, as OpenSSL does.
func referenceIssued(cert, ca *store.Object, ignoreFlags bool) bool {
	keyIDMismatch := len(cert.AuthorityKeyID) > 0 && len(ca.SubjectKeyID) > 0 &&
		!bytes.Equal(cert.AuthorityKeyID, ca.SubjectKeyID)
	serialMismatch := cert.AuthoritySerial != nil &&
		(ca.Serial == nil || cert.AuthoritySerial.Cmp(ca.Serial) != 0)
	return !keyIDMismatch && !serialMismatch && (ignoreFlags || ca.IsCA && ca.CanSignCerts) &&
		cert.SignedWith == ca.KeyType
}

func (r *Reference) BySubject(kind store.Kind, key store.Name) []*store.Object {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*store.Object
	for _, o := range r.objs {
		if o.Kind == kind && o.Subject == key {
			out = append(out, o)
		}
	}
	return out
}

func (r *Reference) Objects() []*store.Object {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.objs)
}

func (r *Reference) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.objs)
}
