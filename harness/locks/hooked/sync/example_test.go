package sync_test

import (
	"fmt"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
	"github.com/perfrun/perfrun/harness/locks/hooked/sync"
)

// A read lock tells the profile its acquisition and release, and the
// reader count it writes each way.
func ExampleRWMutex() {
	var told []string
	hooked.Lock = func(event int, lock unsafe.Pointer) { told = append(told, fmt.Sprint("event ", event)) }
	hooked.Atomic = func(addr unsafe.Pointer) { told = append(told, "write") }
	defer func() { hooked.Lock, hooked.Atomic = nil, nil }()
	var rw sync.RWMutex
	rw.RLock()
	rw.RUnlock()
	fmt.Println(told)
	// Output: [write event 4 event 5 write]
}
