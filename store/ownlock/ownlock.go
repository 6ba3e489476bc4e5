// Package ownlock is how a store's own lock — one package sync does not
// implement, such as a futex lock or a C library's lock reached through
// cgo — tells a lock profile (harness/locks) when it is taken and
// released, so the profile counts it as the lock it stands for. It sits
// on the floor, beside the store contract, so that a store or a workload
// reports its locks without importing the harness that counts them.
//
// Its promise: Acquired, Releasing and RegisterEmpty, with the meaning
// their docs give; Hook and Empties serve the lock profile itself.
package ownlock

import (
	"slices"
	"sync"
	"unsafe"
)

var (
	mu      sync.Mutex
	empties []func(n int)
	// hook is the lock profile's while one runs; nil otherwise.
	hook func(acquired bool, lock unsafe.Pointer)
)

// Acquired reports that lock, taken exclusively, was just acquired;
// Releasing that it is about to be released. Outside a lock profile they
// do nothing beyond a load and a branch.
func Acquired(lock unsafe.Pointer) {
	if h := hook; h != nil {
		h(true, lock)
	}
}

// Releasing: see Acquired.
func Releasing(lock unsafe.Pointer) {
	if h := hook; h != nil {
		h(false, lock)
	}
}

// RegisterEmpty registers empty, which takes and releases a lock reported
// through Acquired and Releasing n times with nothing between: a lock
// profile runs it to take off what the reporting adds inside a held
// region. A program with its own lock registers one.
func RegisterEmpty(empty func(n int)) {
	mu.Lock()
	defer mu.Unlock()
	empties = append(empties, empty)
}

// Empties are the empty critical sections registered, for a lock profile.
func Empties() []func(n int) {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(empties)
}

// Hook makes h hear every Acquired and Releasing until the returned undo
// runs: one lock profile at a time, on the thread it counts.
func Hook(h func(acquired bool, lock unsafe.Pointer)) (undo func()) {
	hook = h
	return func() { hook = nil }
}
