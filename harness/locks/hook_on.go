//go:build perfrun_locks

package locks

import (
	_ "sync"        // the overlay's hook variable lives there
	_ "sync/atomic" // and the atomics' hook here
	"unsafe"
)

//go:linkname syncHook sync.perfrunLockHook
var syncHook func(event int, lock unsafe.Pointer)

//go:linkname atomicHook sync/atomic.perfrunAtomicHook
var atomicHook func(addr unsafe.Pointer)

//go:linkname readHook sync/atomic.perfrunAtomicReadHook
var readHook func(addr unsafe.Pointer)

//go:linkname spinHook sync/atomic.perfrunSpinHook
var spinHook func(addr unsafe.Pointer, acquired bool)

// Instrumented says whether this binary was built for lock profiles: with
// the build tag and the overlay of the standard sync (Build).
const Instrumented = true

func install(h func(event int, lock unsafe.Pointer)) { syncHook = h }

func installAtomics(h func(addr unsafe.Pointer)) { atomicHook = h }

func installReads(h func(addr unsafe.Pointer)) { readHook = h }

func installSpins(h func(addr unsafe.Pointer, acquired bool)) { spinHook = h }
