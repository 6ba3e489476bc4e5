// Package sortoninsert models the sort-on-insert proposal for X509_STORE:
// the slice of objects is kept ordered by (kind, name length, name bytes) at
// every insert, so it never needs sorting and lookups only read it.
//
// Locking: a read/write mutex. Add and ReplaceCRLs take the write lock,
// binary-search the duplicate or the insert position and insert there (an
// O(N) memmove). Lookups binary-search under the shared read lock; Issuer
// keeps 3.0's shape (find under the lock, quick check of the first candidate
// after unlocking, scan under the lock again).
//
// Its promise: New returns a store.Store that passes storetest, and the
// design and locking described here change only with a note in results/,
// whose figures were measured of them.
package sortoninsert

import (
	"slices"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

// Store is the sort-on-insert model. The zero value is an empty store.
type Store struct {
	mu   sync.RWMutex
	objs []*store.Object // always ordered by store.Less, insertion order among equals
}

// New returns an empty store.
func New() store.Store { return &Store{} }

// find returns the range of objs equal to (kind, key). s.mu must be held.
func (s *Store) find(kind store.Kind, key store.Name) (lo, hi int) {
	cmp := func(o *store.Object, k store.Name) int { return store.CompareKey(o, kind, k) }
	lo, found := slices.BinarySearchFunc(s.objs, key, cmp)
	if !found {
		return lo, lo
	}
	hi = lo + 1
	for hi < len(s.objs) && cmp(s.objs[hi], key) == 0 {
		hi++
	}
	return lo, hi
}

// insert adds o after its equals unless it is a duplicate. s.mu must be
// held for writing.
func (s *Store) insert(o *store.Object) bool {
	lo, hi := s.find(o.Kind, o.Subject)
	if store.HasFingerprint(s.objs[lo:hi], o) {
		return false
	}
	s.objs = slices.Insert(s.objs, hi, o)
	return true
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	added := 0
	for _, o := range objs {
		if s.insert(o) {
			added++
		}
	}
	return added, nil
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	lo, hi := s.find(store.CRL, issuer)
	s.objs = slices.Delete(s.objs, lo, hi)
	for _, o := range crls {
		s.insert(o)
	}
	return hi - lo, nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	s.mu.RLock()
	lo, hi := s.find(store.Cert, cert.Issuer)
	if lo == hi {
		s.mu.RUnlock()
		return nil, false
	}
	first := s.objs[lo]
	s.mu.RUnlock()
	if store.CheckIssued(cert, first) && store.TimeValid(first, at) {
		return first, true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	lo, hi = s.find(store.Cert, cert.Issuer)
	return store.SelectIssuer(cert, at, s.objs[lo:hi])
}

func (s *Store) BySubject(kind store.Kind, key store.Name) []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	lo, hi := s.find(kind, key)
	return slices.Clone(s.objs[lo:hi])
}

func (s *Store) Objects() []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.objs)
}

func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.objs)
}
