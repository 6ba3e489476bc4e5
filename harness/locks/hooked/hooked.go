// Package hooked holds the two hooks a lock profile (harness/locks)
// installs, and the events it is told of. The packages below it,
// hooked/sync and hooked/sync/atomic, are sync and sync/atomic with their
// locks and atomic writes calling these hooks. A build for lock profiles
// has every package outside the standard library import them in place of
// the standard ones, so the standard library is compiled as any build
// compiles it and a fresh machine pays for it once.
//
// Its promise: Lock, Atomic and the events, set and read by harness/locks
// alone; Unshaped, set by hooked/sync where this Go's RWMutex is not
// shaped as it knows it.
package hooked

import "unsafe"

// Lock, when set, is told of every acquisition (after it) and release
// (before it) of a hooked sync.Mutex or sync.RWMutex.
var Lock func(event int, lock unsafe.Pointer)

// Atomic, when set, is told the address every writing method of a hooked
// sync/atomic type writes, and a hooked RWMutex's reader count wherever
// the standard RWMutex writes it at one thread.
var Atomic func(addr unsafe.Pointer)

// Unshaped says why a profile cannot trust hooked/sync ("" when it can):
// this Go's sync.RWMutex has no reader count where hooked/sync looks.
var Unshaped string

// The events Lock is told of: a kind of lock and mode, acquired or
// released (release = acquire + 1).
const (
	MutexAcquire = iota
	MutexRelease
	WriteAcquire
	WriteRelease
	ReadAcquire
	ReadRelease
)

// Tell tells Lock, where set, of event on lock.
func Tell(event int, lock unsafe.Pointer) {
	if h := Lock; h != nil {
		h(event, lock)
	}
}

// Wrote tells Atomic, where set, of a write to addr.
func Wrote(addr unsafe.Pointer) {
	if h := Atomic; h != nil {
		h(addr)
	}
}
