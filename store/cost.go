package store

import "sync"

// Cost is work a model does on every lookup beside its own, so that it
// stands at its real store's cost profile: Inside while it holds its
// lock, Outside after it let go, and Retry while it holds its lock again
// because its first candidate was not the issuer (a model without a
// second hold never does it). Each is real work — hashing, comparing,
// taking locks other threads take too — never a sleep, so two threads
// contend for it as they would for the real store's. The zero Cost adds
// nothing.
type Cost struct {
	Inside, Outside, Retry func(cert *Object)
	// Lock, when set, is the lock the model takes in place of its own,
	// for every operation: the real store's lock as it behaves under
	// contention (3.0's is a pthread rwlock taken for writing, which puts
	// a waiter to sleep at once where Go's mutex spins and parks). Only
	// the sorted model, whose store has one exclusive lock, takes it.
	Lock sync.Locker
	// Refs, when set, has a lookup take a reference to every object it
	// hands out and give it back (Object.UpRef, DownRef), as OpenSSL 4.0's
	// lookups and their callers do: the atomic writes to the objects'
	// own lines its lock profile counts. Only the hashmap model keeps them.
	Refs bool
}

// InsideLock does the work of Inside, if any, for a lookup of cert.
func (c Cost) InsideLock(cert *Object) {
	if c.Inside != nil {
		c.Inside(cert)
	}
}

// RetryLock does the work of Retry, if any, for a lookup of cert that
// holds the lock a second time.
func (c Cost) RetryLock(cert *Object) {
	if c.Retry != nil {
		c.Retry(cert)
	}
}

// AfterLock does the work of Outside, if any, for a lookup of cert.
func (c Cost) AfterLock(cert *Object) {
	if c.Outside != nil {
		c.Outside(cert)
	}
}

// Costed is a store that can be given a Cost: the models of real stores.
// SetCost is called before any lookup.
type Costed interface {
	SetCost(Cost)
}
