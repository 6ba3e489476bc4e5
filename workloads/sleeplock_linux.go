//go:build linux

package workloads

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/perfrun/perfrun/store/ownlock"
)

// sleepLock is a lock that behaves as glibc's pthread rwlock does for a
// writer: one compare-and-swap, and on contention the thread sleeps in
// the kernel (futex) at once, without spinning and without Go's
// scheduler; unlock wakes a sleeper. It is the lock of a cost profile's
// sleeping work (3.0's store lock, taken for writing on every lookup).
type sleepLock struct {
	// state: 0 free, 1 held, 2 held with sleepers.
	state atomic.Uint32
}

const (
	futexWait = 0 | 128 // FUTEX_WAIT | FUTEX_PRIVATE_FLAG
	futexWake = 1 | 128 // FUTEX_WAKE | FUTEX_PRIVATE_FLAG
)

func (l *sleepLock) Lock() {
	if l.state.CompareAndSwap(0, 1) {
		ownlock.Acquired(unsafe.Pointer(l))
		return
	}
	// The classic three-state futex mutex: mark sleepers, sleep while held.
	for l.state.Swap(2) != 0 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&l.state)), futexWait, 2, 0, 0, 0)
	}
	ownlock.Acquired(unsafe.Pointer(l))
}

// A lock profile counts sleepLock as the lock it stands for; emptyLock's
// empty critical sections measure what the reporting adds.
var emptyLock sleepLock

func init() {
	ownlock.RegisterEmpty(func(n int) {
		for range n {
			emptyLock.Lock()
			emptyLock.Unlock()
		}
	})
}

func (l *sleepLock) Unlock() {
	ownlock.Releasing(unsafe.Pointer(l))
	if l.state.Swap(0) == 2 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&l.state)), futexWake, 1, 0, 0, 0)
	}
}
