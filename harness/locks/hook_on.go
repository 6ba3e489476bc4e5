//go:build perfrun_locks && !perfrun_locks_std

package locks

import (
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
)

// Instrumented says whether this binary was built for lock profiles: with
// the build tag and the overlay that hooks its locks and atomics (Build).
const Instrumented = true

func install(h func(event int, lock unsafe.Pointer)) { hooked.Lock = h }

func installAtomics(h func(addr unsafe.Pointer)) { hooked.Atomic = h }

// unshaped says why this binary's hooked sync cannot be trusted, or "".
func unshaped() string { return hooked.Unshaped }
