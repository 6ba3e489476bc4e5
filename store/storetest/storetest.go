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
// test run only with -perfrun.stress=DURATION.
package storetest

import (
	"testing"

	"github.com/perfrun/perfrun/store"
)

// Run runs the conformance suite against the stores newStore makes. Each
// call of newStore must return a new, empty store.
func Run(t *testing.T, newStore func() store.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, func() store.Store)
	}{
		{"CanonicalNames", testCanonicalNames},
		{"IssuerSelection", testIssuerSelection},
		{"Duplicates", testDuplicates},
		{"ObjectsSnapshot", testObjectsSnapshot},
		{"ReplaceCRLs", testReplaceCRLs},
		{"Differential", testDifferential},
		{"Concurrent", testConcurrent},
		{"IssuerAllocs", testIssuerAllocs},
		{"LongBucketAllocs", testLongBucketAllocs},
		{"Stress", testStress},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore) })
	}
}
