// Package striped is a certificate store whose one lock can be split in
// stripes: a map from canonical name to a short list, its lookups under
// one of k padded sync.Mutex stripes picked by the issuer's name hash, or
// under one sync.RWMutex taken for reading. It is the family that holds
// perfrun's prediction past the cores to what splitting a lock does.
//
// Locking: a lookup takes one stripe (or the read lock), keeps the list's
// header and selects after unlocking (lists are append-only). Writers take
// every stripe in order (or the write lock), so a lookup never sees a
// write half done; BySubject, Objects and Len take them all too.
package striped

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

// stripe is a Mutex alone on its cache line.
type stripe struct {
	sync.Mutex
	_ [56]byte
}

// Store is the striped map.
type Store struct {
	stripes []stripe     // lookups take one; nil: rw
	rw      sync.RWMutex // lookups read-lock it where there are no stripes
	m       map[key][]*store.Object
	n       int
}

// New returns an empty store whose lookups take one of k stripes.
func New(k int) store.Store {
	return &Store{stripes: make([]stripe, k), m: make(map[key][]*store.Object)}
}

// NewRW returns an empty store whose lookups take a read lock.
func NewRW() store.Store { return &Store{m: make(map[key][]*store.Object)} }

func (s *Store) lockAll() {
	if s.stripes == nil {
		s.rw.Lock()
		return
	}
	for i := range s.stripes {
		s.stripes[i].Lock()
	}
}

func (s *Store) unlockAll() {
	if s.stripes == nil {
		s.rw.Unlock()
		return
	}
	for i := range s.stripes {
		s.stripes[i].Unlock()
	}
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.lockAll()
	defer s.unlockAll()
	added := 0
	for _, o := range objs {
		k := key{o.Kind, o.Subject}
		if !store.HasFingerprint(s.m[k], o) {
			s.m[k] = append(s.m[k], o)
			s.n++
			added++
		}
	}
	return added, nil
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	s.lockAll()
	defer s.unlockAll()
	k := key{store.CRL, issuer}
	old := s.m[k]
	var list []*store.Object
	for _, o := range crls {
		if !store.HasFingerprint(list, o) {
			list = append(list, o)
		}
	}
	if len(list) == 0 {
		delete(s.m, k)
	} else {
		s.m[k] = list
	}
	s.n += len(list) - len(old)
	return len(old), nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	k := key{store.Cert, cert.Issuer}
	var list []*store.Object
	if s.stripes == nil {
		s.rw.RLock()
		list = s.m[k]
		s.rw.RUnlock()
	} else {
		st := &s.stripes[cert.IssuerHash%uint64(len(s.stripes))]
		st.Lock()
		list = s.m[k]
		st.Unlock()
	}
	return store.SelectIssuer(cert, at, list)
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	s.lockAll()
	defer s.unlockAll()
	return slices.Clone(s.m[key{kind, name}])
}

func (s *Store) Objects() []*store.Object {
	s.lockAll()
	defer s.unlockAll()
	var all []*store.Object
	for _, list := range s.m {
		all = append(all, list...)
	}
	return all
}

func (s *Store) Len() int {
	s.lockAll()
	defer s.unlockAll()
	return s.n
}
