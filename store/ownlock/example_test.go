package ownlock_test

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/perfrun/perfrun/store/ownlock"
)

// spinLock is a store's own lock, reported to lock profiles.
type spinLock struct{ held atomic.Bool }

func (l *spinLock) Lock() {
	for !l.held.CompareAndSwap(false, true) {
	}
	ownlock.Acquired(unsafe.Pointer(l))
}

func (l *spinLock) Unlock() {
	ownlock.Releasing(unsafe.Pointer(l))
	l.held.Store(false)
}

// A store with a lock of its own reports it, and registers an empty
// critical section of it, which a profile runs to take off what the
// reporting costs.
func Example() {
	var empty spinLock
	ownlock.RegisterEmpty(func(n int) {
		for range n {
			empty.Lock()
			empty.Unlock()
		}
	})
	var seen []bool
	undo := ownlock.Hook(func(acquired bool, _ unsafe.Pointer) { seen = append(seen, acquired) })
	var l spinLock
	l.Lock()
	l.Unlock()
	undo()
	l.Lock() // no profile runs: not heard
	l.Unlock()
	fmt.Println(seen, len(ownlock.Empties()))
	// Output: [true false] 1
}
