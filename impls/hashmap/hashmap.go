// Package hashmap models X509_STORE in OpenSSL 4.0 (PR 28599): a hash table from
// canonical name to a short unsorted list of objects, in insertion order.
//
// Locking: a read/write mutex. Add and ReplaceCRLs take the write lock (the
// duplicate check scans one short list). A lookup takes the read lock only
// to find its list and keep the list's header, and selects the issuer after
// unlocking, as master does: lists are append-only (a replacement makes a
// new one), so the elements a reader holds never change, however long the
// list, and nothing is copied or allocated. A read lock is not free: every
// reader writes the lock's shared reader count, one cache line. At its real
// store's cost (a store.Cost with Retry), a lookup whose first candidate is
// not the issuer takes the read lock again, as 4.0 does to check the
// others. At that cost it keeps 4.0's reference counts too: the first
// object is handed out with a reference the caller gives back, and a
// lookup that checks every candidate takes and gives back one to each and
// to the issuer it picks (store.Cost.Refs), an atomic write to each
// object's own line. Objects must build the flat list from the table on
// every call — the get0/get1_objects cost of the hash map design. The table is the model's
// own, open-addressed, keyed by store.HashName and the interned name, both
// made once per object when it is parsed (OpenSSL caches the canonical
// encoding the same way): no per-process seed, so every process probes
// alike.
//
// Its promise: New returns a store.Store that passes storetest, and the
// design and locking described here change only with a note in results/,
// whose figures were measured of them.
package hashmap

import (
	"slices"
	"sync"
	"time"
	"unique"

	"github.com/perfrun/perfrun/store"
)

// entry is every object of one kind under one name. A slot whose objs is
// nil is empty; gone marks a slot whose entry was removed, which probes
// pass over.
type entry struct {
	hash uint64
	kind store.Kind
	gone bool
	id   unique.Handle[store.Name]
	objs []*store.Object
}

// Store is the OpenSSL 4.0 model.
type Store struct {
	mu    sync.RWMutex
	slots []entry // open addressing, linear probing; a power of two of them
	used  int     // slots holding an entry or a removed one
	n     int
	cost  store.Cost // none unless set (SetCost)
}

// SetCost has every lookup do c's work as well: Inside under the read
// lock, as 4.0 holds its read lock for the hash lookup; Outside after;
// and, with Retry, the read lock taken again for Retry's work when the
// first candidate is not the issuer, as 4.0's X509_STORE_CTX_get1_issuer
// takes it again to check the other candidates.
func (s *Store) SetCost(c store.Cost) { s.cost = c }

// minSlots is the size of an empty store's table.
const minSlots = 32

// New returns an empty store.
func New() store.Store { return &Store{slots: make([]entry, minSlots)} }

// find returns the slot of (kind, name) and true, or the empty slot where
// it would go and false. s.mu must be held.
func (s *Store) find(h uint64, kind store.Kind, id unique.Handle[store.Name]) (int, bool) {
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &s.slots[i]
		switch {
		case e.objs == nil:
			return int(i), false
		case !e.gone && e.hash == h && e.id == id && e.kind == kind:
			return int(i), true
		}
	}
}

// list returns the list of (kind, name). s.mu must be held.
func (s *Store) list(h uint64, kind store.Kind, id unique.Handle[store.Name]) []*store.Object {
	if i, ok := s.find(h, kind, id); ok {
		return s.slots[i].objs
	}
	return nil
}

// insert adds o unless it is a duplicate. s.mu must be held for writing.
func (s *Store) insert(o *store.Object) bool {
	i, ok := s.find(o.SubjectHash, o.Kind, o.SubjectID)
	if !ok {
		s.slots[i] = entry{hash: o.SubjectHash, kind: o.Kind, id: o.SubjectID, objs: []*store.Object{o}}
		s.used++
		s.n++
		s.grow()
		return true
	}
	e := &s.slots[i]
	if store.HasFingerprint(e.objs, o) {
		return false
	}
	// Appending writes past the end readers hold: they never see it.
	e.objs = append(e.objs, o)
	s.n++
	return true
}

// grow doubles the slots when more than half are used, leaving removed
// entries behind. s.mu must be held for writing.
func (s *Store) grow() {
	if 2*s.used <= len(s.slots) {
		return
	}
	old := s.slots
	s.slots, s.used = make([]entry, 2*len(old)), 0
	for _, e := range old {
		if e.objs != nil && !e.gone {
			i, _ := s.find(e.hash, e.kind, e.id)
			s.slots[i] = e
			s.used++
		}
	}
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
	removed := 0
	if i, ok := s.find(store.HashName(issuer), store.CRL, unique.Make(issuer)); ok {
		e := &s.slots[i]
		removed = len(e.objs)
		e.gone, e.objs = true, []*store.Object{}
		s.n -= removed
	}
	for _, o := range crls {
		s.insert(o)
	}
	return removed, nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	s.mu.RLock()
	s.cost.InsideLock(cert)
	candidates := s.list(cert.IssuerHash, store.Cert, cert.IssuerID)
	s.mu.RUnlock()
	refs := s.cost.Refs && len(candidates) > 0
	if refs {
		candidates[0].UpRef() // the first object, handed out
	}
	s.cost.AfterLock(cert)
	retried := s.cost.Retry != nil && len(candidates) > 0 && !(store.CheckIssued(cert, candidates[0]) && store.TimeValid(candidates[0], at))
	if retried {
		s.mu.RLock()
		s.cost.RetryLock(cert)
		if refs {
			for _, c := range candidates { // every candidate, copied out
				c.UpRef()
			}
		}
		s.mu.RUnlock()
	}
	issuer, ok := store.SelectIssuer(cert, at, candidates)
	switch {
	case refs && retried:
		issuerRefs(issuer, candidates)
	case refs:
		candidates[0].DownRef() // the caller gives back the object handed out
	}
	return issuer, ok
}

// issuerRefs takes and gives back the references of a lookup that
// checked every candidate, as 4.0's does: the chosen issuer's taken, the
// candidates' and the first object's given back, then the caller's.
func issuerRefs(issuer *store.Object, candidates []*store.Object) {
	if issuer != nil {
		issuer.UpRef()
	}
	for _, c := range candidates {
		c.DownRef()
	}
	candidates[0].DownRef()
	if issuer != nil {
		issuer.DownRef()
	}
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.list(store.HashName(name), kind, unique.Make(name)))
}

func (s *Store) Objects() []*store.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := make([]*store.Object, 0, s.n)
	for _, e := range s.slots {
		all = append(all, e.objs...) // a removed entry's list is empty
	}
	return all
}

func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}
