//go:build !perfrun_locks

package locks

import "unsafe"

// Instrumented says whether this binary was built for lock profiles: with
// the build tag and the overlay that hooks its locks and atomics (Build).
const Instrumented = false

func install(func(event int, lock unsafe.Pointer)) {}

func installAtomics(func(addr unsafe.Pointer)) {}

func installReads(func(addr unsafe.Pointer)) {}

func installSpins(func(addr unsafe.Pointer, acquired bool)) {}
