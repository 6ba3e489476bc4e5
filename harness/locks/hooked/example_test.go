package hooked_test

import (
	"fmt"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
)

// A lock profile installs the hooks; a hooked lock tells them.
func ExampleTell() {
	var told []int
	hooked.Lock = func(event int, lock unsafe.Pointer) { told = append(told, event) }
	defer func() { hooked.Lock = nil }()
	var lock int
	hooked.Tell(hooked.MutexAcquire, unsafe.Pointer(&lock))
	hooked.Tell(hooked.MutexRelease, unsafe.Pointer(&lock))
	fmt.Println(told)
	// Output: [0 1]
}
