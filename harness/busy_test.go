package harness

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestOthersSeesABusyThread: a thread that spins beside the reader is
// seen as one that wants a CPU.
func TestOthersSeesABusyThread(t *testing.T) {
	if _, ok := runnable(); !ok {
		t.Skip("this system does not say how many threads are runnable")
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		for !stop.Load() {
		}
		close(done)
	}()
	n, ok := Others(150 * time.Millisecond)
	stop.Store(true)
	<-done
	if !ok || n < 1 {
		t.Errorf("Others = %d, %v beside a spinning thread, want at least 1", n, ok)
	}
}
