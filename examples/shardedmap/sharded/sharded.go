// Package sharded is a certificate store that is not one of perfrun's: a
// map from canonical name to a short list, split over 16 shards by the
// name's hash, each under its own read/write lock. It exists to show how a
// store kept outside perfrun's repository is measured by perfrun.
//
// Locking: a lookup takes the read lock of one shard, keeps the list's
// header and selects after unlocking (lists are append-only); writers take
// one shard's write lock. Objects takes every shard's read lock, in order,
// so its snapshot is of one instant.
package sharded

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfrun/perfrun/store"
)

const shards = 16

type key struct {
	kind store.Kind
	name store.Name
}

type shard struct {
	mu sync.RWMutex
	m  map[key][]*store.Object
	_  [64]byte // keep neighbouring shards' locks off one cache line
}

// Store is the sharded map.
type Store struct {
	shards [shards]shard
	n      atomic.Int64
}

// New returns an empty store.
func New() store.Store {
	s := &Store{}
	for i := range s.shards {
		s.shards[i].m = make(map[key][]*store.Object)
	}
	return s
}

func (s *Store) shard(h uint64) *shard { return &s.shards[h%shards] }

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	added := 0
	for _, o := range objs {
		sh := s.shard(o.SubjectHash)
		sh.mu.Lock()
		k := key{o.Kind, o.Subject}
		if !store.HasFingerprint(sh.m[k], o) {
			sh.m[k] = append(sh.m[k], o)
			s.n.Add(1)
			added++
		}
		sh.mu.Unlock()
	}
	return added, nil
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	sh := s.shard(store.HashName(issuer))
	sh.mu.Lock()
	defer sh.mu.Unlock()
	k := key{store.CRL, issuer}
	old := sh.m[k]
	var list []*store.Object
	for _, o := range crls {
		if !store.HasFingerprint(list, o) {
			list = append(list, o)
		}
	}
	if len(list) == 0 {
		delete(sh.m, k)
	} else {
		sh.m[k] = list
	}
	s.n.Add(int64(len(list) - len(old)))
	return len(old), nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	sh := s.shard(cert.IssuerHash)
	sh.mu.RLock()
	list := sh.m[key{store.Cert, cert.Issuer}]
	sh.mu.RUnlock()
	return store.SelectIssuer(cert, at, list)
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	sh := s.shard(store.HashName(name))
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return slices.Clone(sh.m[key{kind, name}])
}

func (s *Store) Objects() []*store.Object {
	for i := range s.shards {
		s.shards[i].mu.RLock()
		defer s.shards[i].mu.RUnlock()
	}
	var all []*store.Object
	for i := range s.shards {
		for _, list := range s.shards[i].m {
			all = append(all, list...)
		}
	}
	return all
}

func (s *Store) Len() int { return int(s.n.Load()) }
