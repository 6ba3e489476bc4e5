// Package rcu models the read-copy-update design for X509_STORE: readers
// load an immutable snapshot through an atomic pointer and take no lock.
//
// Locking: readers take none — Issuer, BySubject, Objects and Len each load
// the current snapshot once and read only it. Writers serialize on a mutex,
// build the next snapshot and publish it with one atomic store; Go's
// garbage collector is the grace period that frees old snapshots once no
// reader holds them. The snapshot is a persistent hash map (a hash array
// mapped trie, github.com/benbjohnson/immutable), so an Add copies only the
// O(log N) path to one leaf plus one short list, not the whole map: loading
// N objects one at a time costs O(N log N), and a batch publishes once.
package rcu

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/immutable"

	"github.com/perfrun/perfrun/store"
)

type key struct {
	kind store.Kind
	name store.Name
}

var hashSeed = maphash.MakeSeed()

// keyHasher hashes keys for the persistent map without allocating.
type keyHasher struct{}

func (keyHasher) Hash(k key) uint32 {
	h := maphash.String(hashSeed, string(k.name))
	return uint32(h>>32) ^ uint32(h) ^ uint32(k.kind)
}

func (keyHasher) Equal(a, b key) bool { return a == b }

// snapshot is one immutable version of the store. Its lists are never
// modified after publication: writers replace them.
type snapshot struct {
	m *immutable.Map[key, []*store.Object]
	n int
}

// Store is the RCU model.
type Store struct {
	mu  sync.Mutex // serializes writers
	cur atomic.Pointer[snapshot]
}

// New returns an empty store.
func New() store.Store {
	s := &Store{}
	s.cur.Store(&snapshot{m: immutable.NewMap[key, []*store.Object](keyHasher{})})
	return s
}

// with returns snap plus o, or snap itself if o is a duplicate.
func with(snap snapshot, o *store.Object) (snapshot, bool) {
	k := key{o.Kind, o.Subject}
	list, _ := snap.m.Get(k)
	if store.HasFingerprint(list, o) {
		return snap, false
	}
	// The full slice expression forces a copy: readers may hold list.
	list = append(list[:len(list):len(list)], o)
	return snapshot{m: snap.m.Set(k, list), n: snap.n + 1}, true
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := *s.cur.Load()
	added := 0
	for _, o := range objs {
		var ok bool
		if next, ok = with(next, o); ok {
			added++
		}
	}
	if added > 0 {
		s.cur.Store(&next)
	}
	return added, nil
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := *s.cur.Load()
	k := key{store.CRL, issuer}
	old, _ := next.m.Get(k)
	next = snapshot{m: next.m.Delete(k), n: next.n - len(old)}
	for _, o := range crls {
		next, _ = with(next, o)
	}
	s.cur.Store(&next)
	return len(old), nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	list, _ := s.cur.Load().m.Get(key{store.Cert, cert.Issuer})
	return store.SelectIssuer(cert, at, list)
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	list, _ := s.cur.Load().m.Get(key{kind, name})
	return append([]*store.Object(nil), list...)
}

func (s *Store) Objects() []*store.Object {
	snap := s.cur.Load()
	all := make([]*store.Object, 0, snap.n)
	for it := snap.m.Iterator(); !it.Done(); {
		_, list, _ := it.Next()
		all = append(all, list...)
	}
	return all
}

func (s *Store) Len() int { return s.cur.Load().n }
