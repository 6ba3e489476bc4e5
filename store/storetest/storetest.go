// Package storetest is the conformance suite every store implementation
// runs, in the manner of testing/fstest: an implementation's test file calls
// Run with its constructor, and its benchmark file calls the Benchmark
// functions.
//
// The suite checks the contract of package store from every side: canonical
// name matching, issuer selection case by case, duplicates, snapshots, CRL
// replacement, a randomized differential test against Reference (a plain
// model written independently of the shared selection code), a concurrent
// test meant for -race, that warm lookups do not allocate, and a long stress
// test run only with PERFRUN_STRESS=DURATION in the environment.
//
// Its promise: Run, RunDeviating, Reference and the Benchmark functions are
// kept; a breaking change bumps the major version. The suite may grow
// checks the contract already states: a store that passes it today may fail
// a later one only where it breaks the contract.
package storetest

import (
	"errors"
	"testing"

	"github.com/perfrun/perfrun/store"
)

// Run runs the conformance suite against the stores newStore makes. Each
// call of newStore must return a new, empty store.
func Run(t *testing.T, newStore func() store.Store) { RunDeviating(t, newStore, Deviations{}) }

// Deviations are documented, tested differences between a real store and
// the contract's rule, which the suite then holds the store to instead.
type Deviations struct {
	// IgnoresCAFlags, if set, says why the store picks issuers without
	// looking at basicConstraints cA or keyUsage keyCertSign (OpenSSL's
	// X509_STORE_CTX_get1_issuer uses check_issued, which leaves both to
	// chain verification): its answers are compared with a reference
	// that ignores them too, and the cases about them are skipped.
	IgnoresCAFlags string
	// NoAllocCheck, if set, says why lookups are not checked for
	// allocations (a cache of C contexts the race detector empties).
	NoAllocCheck string
}

// RunDeviating runs the suite, holding the store to the contract except
// where dev says how and why it differs.
func RunDeviating(t *testing.T, newStore func() store.Store, dev Deviations) {
	plain := func(fn func(*testing.T, func() store.Store)) func(*testing.T, func() store.Store, Deviations) {
		return func(t *testing.T, newStore func() store.Store, _ Deviations) { fn(t, newStore) }
	}
	tests := []struct {
		name string
		fn   func(*testing.T, func() store.Store, Deviations)
	}{
		{"CanonicalNames", plain(testCanonicalNames)},
		{"IssuerSelection", testIssuerSelection},
		{"Duplicates", plain(testDuplicates)},
		{"ObjectsSnapshot", plain(testObjectsSnapshot)},
		{"ReplaceCRLs", plain(testReplaceCRLs)},
		{"Differential", testDifferential},
		{"Concurrent", plain(testConcurrent)},
		{"IssuerAllocs", testIssuerAllocs},
		{"IssuerBatch", testIssuerBatch},
		{"LongBucketAllocs", testLongBucketAllocs},
		{"Stress", plain(testStress)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore, dev) })
	}
}

// reference returns the reference store for dev's rule.
func (dev Deviations) reference() *Reference {
	r := NewReference()
	r.ignoreCAFlags = dev.IgnoresCAFlags != ""
	return r
}

// replaces reports whether the stores newStore makes have ReplaceCRLs:
// a real store may not (store.ErrUnsupported). The tests that depend on
// it skip, saying so; the rest run without it.
func replaces(newStore func() store.Store) bool {
	_, err := newStore().ReplaceCRLs("")
	return !errors.Is(err, store.ErrUnsupported)
}

func skipWithoutReplace(t *testing.T, newStore func() store.Store) {
	if !replaces(newStore) {
		t.Skip("the store has no ReplaceCRLs (store.ErrUnsupported)")
	}
}
