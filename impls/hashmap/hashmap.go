// Package hashmap models X509_STORE in OpenSSL master: a hash map from
// canonical name to a short unsorted list of objects, in insertion order.
//
// Locking: a read/write mutex. Add and ReplaceCRLs take the write lock (the
// duplicate check scans one short list). Lookups take the read lock only to
// copy the candidate list, and select the issuer after unlocking, as master
// does. A read lock is not free: every reader writes the lock's shared
// reader count, one cache line. Objects must build the flat list from the
// map on every call — the get0/get1_objects cost of the hash map design.
package hashmap

import (
	"slices"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

type key struct {
	kind store.Kind
	name store.Name
}

// Store is the OpenSSL master model.
type Store struct {
	mu sync.RWMutex
	m  map[key][]*store.Object
	n  int
}

// New returns an empty store.
func New() store.Store { return &Store{m: make(map[key][]*store.Object)} }

// insert adds o unless it is a duplicate. s.mu must be held for writing.
func (s *Store) insert(o *store.Object) bool {
	k := key{o.Kind, o.Subject}
	list := s.m[k]
	if store.HasFingerprint(list, o) {
		return false
	}
	s.m[k] = append(list, o)
	s.n++
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
	k := key{store.CRL, issuer}
	removed := len(s.m[k])
	delete(s.m, k)
	s.n -= removed
	for _, o := range crls {
		s.insert(o)
	}
	return removed, nil
}

// maxStackCandidates is how many candidates Issuer copies without
// allocating; real stores rarely hold more certificates under one name.
const maxStackCandidates = 8

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	var buf [maxStackCandidates]*store.Object
	s.mu.RLock()
	candidates := append(buf[:0], s.m[key{store.Cert, cert.Issuer}]...)
	s.mu.RUnlock()
	return store.SelectIssuer(cert, at, candidates)
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.m[key{kind, name}])
}

func (s *Store) Objects() []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := make([]*store.Object, 0, s.n)
	for _, list := range s.m {
		all = append(all, list...)
	}
	return all
}

func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}
