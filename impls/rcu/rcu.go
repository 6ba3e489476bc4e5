// Package rcu models the read-copy-update design for X509_STORE after
// OpenSSL's lock-free hash table (crypto/hashtable): readers take no lock
// and never allocate.
//
// Locking: a lookup loads the table with one atomic load and probes its
// slots (open addressing, at most half full) with one atomic load each,
// usually one: nothing is written, so readers never contend. Writers
// serialize on a mutex. Adding one object copies only the entry it
// changes — the list of one name — and publishes it with one atomic store
// into its slot; a batch, and a table grown to twice its slots (amortized
// O(1) per add), are built aside and published with one atomic store of
// the table. Published entries and their lists are never modified: Go's
// garbage collector is the grace period that frees them once no reader
// holds them. Objects takes the writers' mutex, so its snapshot is of one
// instant. Names hash with store.HashName and compare by their interned
// IDs, both made once per object when it is parsed: no per-process seed,
// so every process probes alike.
//
// Its promise: New returns a store.Store that passes storetest, and the
// design and locking described here change only with a note in results/,
// whose figures were measured of them.
package rcu

import (
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/perfrun/perfrun/store"
)

// entry is every object of one kind under one name, immutable once
// published: a writer publishes a new entry. A removed entry stays as a
// gone marker, so that every probe that passed its slot still passes it.
type entry struct {
	hash uint64
	kind store.Kind
	gone bool
	id   unique.Handle[store.Name]
	objs []*store.Object
}

// table is an open-addressed array of entry pointers, probed linearly
// from hash & mask; a nil slot ends a probe.
type table struct {
	slots []atomic.Pointer[entry]
	mask  uint64
}

// minSlots is the size of an empty store's table.
const minSlots = 32

func newTable(slots int) *table {
	return &table{slots: make([]atomic.Pointer[entry], slots), mask: uint64(slots - 1)}
}

// find returns the slot of (kind, name) and its entry, or the nil slot
// where it would go and nil.
func (t *table) find(h uint64, kind store.Kind, id unique.Handle[store.Name]) (int, *entry) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		e := t.slots[i].Load()
		if e == nil {
			return int(i), nil
		}
		if e.hash == h && e.id == id && e.kind == kind && !e.gone {
			return int(i), e
		}
	}
}

// lookup returns the published list of (kind, name): read only.
func (t *table) lookup(h uint64, kind store.Kind, id unique.Handle[store.Name]) []*store.Object {
	if _, e := t.find(h, kind, id); e != nil {
		return e.objs
	}
	return nil
}

// Store is the RCU model.
type Store struct {
	mu   sync.Mutex // serializes writers, and Objects against them
	cur  atomic.Pointer[table]
	n    atomic.Int64
	used int // slots holding an entry, gone ones included; guarded by mu
}

// New returns an empty store.
func New() store.Store {
	s := &Store{}
	s.cur.Store(newTable(minSlots))
	return s
}

// insert adds o to t unless it is a duplicate, publishing one entry.
func (s *Store) insert(t *table, o *store.Object) bool {
	i, e := t.find(o.SubjectHash, o.Kind, o.SubjectID)
	var list []*store.Object
	if e != nil {
		list = e.objs
		if store.HasFingerprint(list, o) {
			return false
		}
	} else {
		s.used++
	}
	// The full slice expression forces a copy: readers may hold list.
	t.slots[i].Store(&entry{hash: o.SubjectHash, kind: o.Kind, id: o.SubjectID, objs: append(list[:len(list):len(list)], o)})
	s.n.Add(1)
	return true
}

// grown returns t, or when more than half its slots are used a table
// twice as large (or more), built aside from t's live entries.
func (s *Store) grown(t *table) *table {
	if 2*s.used <= len(t.slots) {
		return t
	}
	live := 0
	for i := range t.slots {
		if e := t.slots[i].Load(); e != nil && !e.gone {
			live++
		}
	}
	size := len(t.slots)
	for 2*live > size/2 {
		size *= 2
	}
	next := newTable(size)
	for i := range t.slots {
		if e := t.slots[i].Load(); e != nil && !e.gone {
			j, _ := next.find(e.hash, e.kind, e.id)
			next.slots[j].Store(e)
		}
	}
	s.used = live
	return next
}

// clone returns a new table sharing t's entries, for a batch to change
// before it publishes it.
func clone(t *table) *table {
	next := newTable(len(t.slots))
	for i := range t.slots {
		next.slots[i].Store(t.slots[i].Load())
	}
	return next
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.cur.Load()
	if len(objs) == 1 {
		// One object: one bucket published in place, then a growth if due.
		added := s.insert(t, objs[0])
		if next := s.grown(t); next != t {
			s.cur.Store(next)
		}
		return b2i(added), nil
	}
	next := clone(t)
	added := 0
	for _, o := range objs {
		if s.insert(next, o) {
			added++
			next = s.grown(next) // unpublished: grown in place of a copy
		}
	}
	if added > 0 {
		s.cur.Store(next)
	}
	return added, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.cur.Load()
	h, id := store.HashName(issuer), unique.Make(issuer)
	i, e := t.find(h, store.CRL, id)
	var old []*store.Object
	if e != nil {
		old = e.objs
	}
	var list []*store.Object
	for _, o := range crls {
		if !store.HasFingerprint(list, o) {
			list = append(list, o)
		}
	}
	switch {
	case e == nil && len(list) == 0:
		return 0, nil
	case e == nil:
		s.used++
	}
	// One entry, one atomic store: readers see the old CRLs or the new.
	t.slots[i].Store(&entry{hash: h, kind: store.CRL, gone: len(list) == 0, id: id, objs: list})
	s.n.Add(int64(len(list) - len(old)))
	if next := s.grown(t); next != t {
		s.cur.Store(next)
	}
	return len(old), nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	return store.SelectIssuer(cert, at, s.cur.Load().lookup(cert.IssuerHash, store.Cert, cert.IssuerID))
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	list := s.cur.Load().lookup(store.HashName(name), kind, unique.Make(name))
	return append([]*store.Object(nil), list...)
}

func (s *Store) Objects() []*store.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.cur.Load()
	all := make([]*store.Object, 0, s.n.Load())
	for i := range t.slots {
		if e := t.slots[i].Load(); e != nil {
			all = append(all, e.objs...) // a gone entry's list is empty
		}
	}
	return all
}

func (s *Store) Len() int { return int(s.n.Load()) }
