package store

import (
	"errors"
	"fmt"
	"time"
)

// Impl is one implementation of Store: its name, a one-line description and
// a constructor of empty stores. Workloads and the harness receive an Impl,
// never the registry that lists them.
type Impl struct {
	Name        string
	Description string
	// Library names the real library behind a store that is not a model,
	// such as "OpenSSL 3.0.19 27 Jan 2026"; results record it.
	Library string
	// Rule is how the store picks issuers: the contract's, or a real
	// store's documented deviation, which the workloads then expect.
	Rule Rule
	New  func() Store
}

// Store is a concurrent certificate store, the contract every
// implementation obeys. See the package documentation for the concurrency
// rules.
type Store interface {
	// Add inserts objects in order, skipping any whose fingerprint is
	// already present (in the store or earlier in the batch); a duplicate is
	// not an error. It returns how many were inserted. A batch with an
	// invalid object is refused whole. Batches exist so copy-on-write
	// designs pay one copy per batch.
	Add(objs ...*Object) (added int, err error)

	// ReplaceCRLs atomically removes every CRL whose issuer is issuer and
	// adds crls, which must all be CRLs of that issuer (none means a plain
	// removal). It is the CRL reload of a long-running server. A store
	// that cannot remove objects returns ErrUnsupported and changes
	// nothing.
	ReplaceCRLs(issuer Name, crls ...*Object) (removed int, err error)

	// Issuer returns the issuer of cert that SelectIssuer picks among the
	// stored certificates whose subject equals cert's issuer, in insertion
	// order; false if none passes CheckIssued. A warm lookup must not
	// allocate.
	Issuer(cert *Object, at time.Time) (*Object, bool)

	// BySubject returns the objects of one kind stored under key (a CRL is
	// stored under its issuer), in insertion order, in a slice the caller
	// owns.
	BySubject(kind Kind, key Name) []*Object

	// Objects returns every stored object, in a fresh slice the caller owns:
	// a consistent snapshot of one instant. The order is the
	// implementation's.
	Objects() []*Object

	// Len returns the number of stored objects.
	Len() int
}

// IssuerBatch is an optional method of a Store whose lookups cross a
// boundary that costs more than a Go call, such as cgo into a C library:
// the workloads then hand it a worker's whole batch of lookups in one
// call, so what is measured is the store and not the crossing. out[i]
// must be what Issuer(certs[i], at) returns (nil for false); len(out)
// equals len(certs). Like Issuer, a warm batch must not allocate.
type IssuerBatch interface {
	IssuerBatch(certs []*Object, at time.Time, out []*Object)
}

// ErrNilObject is returned by Add and ReplaceCRLs for a nil object.
var ErrNilObject = errors.New("nil object")

// ErrUnsupported is returned (wrapped) by an operation a real store does
// not have, such as ReplaceCRLs on OpenSSL's X509_STORE, which cannot
// remove an object. A workload that needs the operation reports its cell
// as unsupported; the conformance suite skips what depends on it.
var ErrUnsupported = errors.New("not supported by this store")

// CheckBatch validates the objects of an Add.
func CheckBatch(objs []*Object) error {
	for i, o := range objs {
		if o == nil {
			return fmt.Errorf("object %d: %w", i, ErrNilObject)
		}
	}
	return nil
}

// CheckReplacement validates the arguments of ReplaceCRLs.
func CheckReplacement(issuer Name, crls []*Object) error {
	if err := CheckBatch(crls); err != nil {
		return err
	}
	for i, o := range crls {
		if o.Kind != CRL {
			return fmt.Errorf("object %d: %s is not a CRL", i, o)
		}
		if o.Subject != issuer {
			return fmt.Errorf("object %d: %s is not issued by the CRL issuer being replaced", i, o)
		}
	}
	return nil
}

// Less orders objects the way OpenSSL's sorted stack does: by kind, then by
// canonical subject (length, then bytes).
func Less(a, b *Object) int {
	if a.Kind != b.Kind {
		return int(a.Kind) - int(b.Kind)
	}
	return CompareNames(a.Subject, b.Subject)
}

// CompareKey compares an object's (kind, subject) with a search key, for
// binary searches over slices ordered by Less.
func CompareKey(o *Object, kind Kind, key Name) int {
	if o.Kind != kind {
		return int(o.Kind) - int(kind)
	}
	return CompareNames(o.Subject, key)
}

// HasFingerprint reports whether list holds an object with o's fingerprint.
func HasFingerprint(list []*Object, o *Object) bool {
	for _, x := range list {
		if x.Fingerprint == o.Fingerprint {
			return true
		}
	}
	return false
}
