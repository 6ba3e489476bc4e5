// Package sorted models OpenSSL 3.0's X509_STORE: one slice of objects,
// ordered by (kind, name length, name bytes) but sorted lazily.
//
// Locking: one exclusive mutex guards everything. Add appends and marks the
// slice unsorted, and any find on an unsorted slice — the duplicate check of
// the next Add, or a lookup — first re-sorts the whole slice under the lock,
// so loading N objects costs O(N² log N). Issuer holds the lock for the find,
// checks the first candidate after unlocking (3.0's quick path) and, if that
// fails, locks again to scan the other candidates. Readers therefore
// serialize on one lock, which is the contention perfrun measures. At
// cost=real that lock is the cost's (store.Cost.Lock), one that sleeps at
// once as 3.0's pthread lock does.
//
// Its promise: New returns a store.Store that passes storetest, and the
// design and locking described here change only with a note in results/,
// whose figures were measured of them.
package sorted

import (
	"slices"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

// Store is the OpenSSL 3.0 model. The zero value is an empty store.
type Store struct {
	mu     sync.Mutex
	objs   []*store.Object
	sorted bool       // objs is ordered by store.Less
	cost   store.Cost // none unless set (SetCost)
}

// SetCost has every lookup do c's work as well: Inside while it holds the
// lock for its search, as 3.0 holds its store lock for
// X509_STORE_CTX_get_by_subject; Outside after; Retry when it holds the
// lock again to check the other candidates, as 3.0's
// X509_STORE_CTX_get1_issuer does. With c.Lock, every operation takes
// that lock instead of the store's own.
func (s *Store) SetCost(c store.Cost) { s.cost = c }

// acquire takes the lock every operation takes: the cost's, if it has
// one, else the store's own (called directly, not through an interface).
func (s *Store) acquire() {
	if s.cost.Lock != nil {
		s.cost.Lock.Lock()
		return
	}
	s.mu.Lock()
}

// release lets go of what acquire took.
func (s *Store) release() {
	if s.cost.Lock != nil {
		s.cost.Lock.Unlock()
		return
	}
	s.mu.Unlock()
}

// New returns an empty store.
func New() store.Store { return &Store{} }

// find returns the range of objs equal to (kind, key), sorting first if
// needed, as sk_X509_OBJECT_find does. The stable sort keeps insertion
// order among equal names. The lock (acquire) must be held.
func (s *Store) find(kind store.Kind, key store.Name) (lo, hi int) {
	if !s.sorted {
		slices.SortStableFunc(s.objs, store.Less)
		s.sorted = true
	}
	lo, _ = slices.BinarySearchFunc(s.objs, key, func(o *store.Object, k store.Name) int {
		return store.CompareKey(o, kind, k)
	})
	hi = lo
	for hi < len(s.objs) && store.CompareKey(s.objs[hi], kind, key) == 0 {
		hi++
	}
	return lo, hi
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.acquire()
	defer s.release()
	added := 0
	for _, o := range objs {
		lo, hi := s.find(o.Kind, o.Subject)
		if store.HasFingerprint(s.objs[lo:hi], o) {
			continue
		}
		s.objs = append(s.objs, o)
		s.sorted = false
		added++
	}
	return added, nil
}

func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	if err := store.CheckReplacement(issuer, crls); err != nil {
		return 0, err
	}
	s.acquire()
	defer s.release()
	lo, hi := s.find(store.CRL, issuer)
	removed := hi - lo
	s.objs = slices.Delete(s.objs, lo, hi)
	for _, o := range crls {
		lo, hi := s.find(o.Kind, o.Subject)
		if store.HasFingerprint(s.objs[lo:hi], o) {
			continue
		}
		s.objs = append(s.objs, o)
		s.sorted = false
	}
	return removed, nil
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	s.acquire()
	s.cost.InsideLock(cert)
	lo, hi := s.find(store.Cert, cert.Issuer)
	if lo == hi {
		s.release()
		return nil, false
	}
	first := s.objs[lo]
	s.release()
	s.cost.AfterLock(cert)
	if store.CheckIssued(cert, first) && store.TimeValid(first, at) {
		return first, true
	}
	s.acquire()
	defer s.release()
	s.cost.RetryLock(cert)
	lo, hi = s.find(store.Cert, cert.Issuer)
	return store.SelectIssuer(cert, at, s.objs[lo:hi])
}

func (s *Store) BySubject(kind store.Kind, key store.Name) []*store.Object {
	s.acquire()
	defer s.release()
	lo, hi := s.find(kind, key)
	return slices.Clone(s.objs[lo:hi])
}

func (s *Store) Objects() []*store.Object {
	s.acquire()
	defer s.release()
	return slices.Clone(s.objs)
}

func (s *Store) Len() int {
	s.acquire()
	defer s.release()
	return len(s.objs)
}
