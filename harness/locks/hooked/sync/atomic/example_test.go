package atomic_test

import (
	"fmt"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
	"github.com/perfrun/perfrun/harness/locks/hooked/sync/atomic"
)

// A counter tells the profile its address before each write, not before
// a load.
func ExampleInt64() {
	var n atomic.Int64
	writes := 0
	hooked.Atomic = func(addr unsafe.Pointer) {
		if addr == unsafe.Pointer(&n) {
			writes++
		}
	}
	defer func() { hooked.Atomic = nil }()
	n.Add(2)
	n.CompareAndSwap(2, 3)
	fmt.Println(n.Load(), writes)
	// Output: 3 2
}
