// Package sync is the standard sync whose Mutex and RWMutex tell a lock
// profile of every acquisition and release (package hooked): a build for
// lock profiles (harness/locks) has every package outside the standard
// library import it in place of sync. Its other names are the standard
// ones.
//
// Its promise: the standard sync's API, every name of it, and the events
// and addresses the standard sync told the profile's earlier overlay of
// it, in the same order.
package sync

import (
	"reflect"
	std "sync"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
)

type (
	Cond      = std.Cond
	Locker    = std.Locker
	Map       = std.Map
	Once      = std.Once
	Pool      = std.Pool
	WaitGroup = std.WaitGroup
)

func NewCond(l Locker) *Cond { return std.NewCond(l) }

func OnceFunc(f func()) func() { return std.OnceFunc(f) }

func OnceValue[T any](f func() T) func() T { return std.OnceValue(f) }

func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) { return std.OnceValues(f) }

// A Mutex is the standard one, at the same address: the lock a profile is
// told of is the Mutex itself. Its methods are never inlined, so what the
// hook adds inside a held region is the same wherever a store locks.
type Mutex struct{ m std.Mutex }

//go:noinline
func (m *Mutex) Lock() { m.m.Lock(); hooked.Tell(hooked.MutexAcquire, unsafe.Pointer(m)) }

//go:noinline
func (m *Mutex) TryLock() bool {
	if !m.m.TryLock() {
		return false
	}
	hooked.Tell(hooked.MutexAcquire, unsafe.Pointer(m))
	return true
}

//go:noinline
func (m *Mutex) Unlock() { hooked.Tell(hooked.MutexRelease, unsafe.Pointer(m)); m.m.Unlock() }

// An RWMutex is the standard one, at the same address. At one thread the
// standard RWMutex writes its reader count once in each of its methods:
// the hooked one tells the profile so, in the order the write falls
// between the lock's events.
type RWMutex struct{ rw std.RWMutex }

//go:noinline
func (rw *RWMutex) Lock() {
	rw.rw.Lock()
	hooked.Wrote(rw.readerCount())
	hooked.Tell(hooked.WriteAcquire, unsafe.Pointer(rw))
}

//go:noinline
func (rw *RWMutex) TryLock() bool {
	if !rw.rw.TryLock() {
		return false
	}
	hooked.Wrote(rw.readerCount())
	hooked.Tell(hooked.WriteAcquire, unsafe.Pointer(rw))
	return true
}

//go:noinline
func (rw *RWMutex) Unlock() {
	hooked.Tell(hooked.WriteRelease, unsafe.Pointer(rw))
	hooked.Wrote(rw.readerCount())
	rw.rw.Unlock()
}

//go:noinline
func (rw *RWMutex) RLock() {
	rw.rw.RLock()
	hooked.Wrote(rw.readerCount())
	hooked.Tell(hooked.ReadAcquire, unsafe.Pointer(rw))
}

//go:noinline
func (rw *RWMutex) TryRLock() bool {
	if !rw.rw.TryRLock() {
		return false
	}
	hooked.Wrote(rw.readerCount())
	hooked.Tell(hooked.ReadAcquire, unsafe.Pointer(rw))
	return true
}

//go:noinline
func (rw *RWMutex) RUnlock() {
	hooked.Tell(hooked.ReadRelease, unsafe.Pointer(rw))
	hooked.Wrote(rw.readerCount())
	rw.rw.RUnlock()
}

// RLocker is a Locker whose Lock and Unlock are rw's RLock and RUnlock.
func (rw *RWMutex) RLocker() Locker { return (*rlocker)(rw) }

type rlocker RWMutex

func (r *rlocker) Lock()   { (*RWMutex)(r).RLock() }
func (r *rlocker) Unlock() { (*RWMutex)(r).RUnlock() }

func (rw *RWMutex) readerCount() unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(&rw.rw), readerCountAt)
}

// readerCountAt is where the standard RWMutex keeps its reader count, the
// word its every method writes at one thread; where it has none,
// hooked.Unshaped says so and a profile refuses to count.
var readerCountAt = func() uintptr {
	f, ok := reflect.TypeFor[std.RWMutex]().FieldByName("readerCount")
	if !ok || f.Type.Size() != 4 {
		hooked.Unshaped = "this Go's sync.RWMutex has no 4-byte readerCount: its lines cannot be told"
		return 0
	}
	return f.Offset
}()
