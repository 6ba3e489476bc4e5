//go:build !linux

package workloads

import "sync"

// sleepLock is, away from Linux, Go's mutex: the futex that makes it
// sleep at once is Linux's.
type sleepLock struct{ sync.Mutex }
