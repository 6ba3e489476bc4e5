package harness

import (
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestOthersSeesABusyThread: a process that spins beside the reader is
// seen as a thread that wants a CPU.
func TestOthersSeesABusyThread(t *testing.T) {
	if _, ok := runnable(); !ok {
		t.Skip("this system does not say how many threads are runnable")
	}
	if os.Getenv("PERFRUN_TEST_SPIN") == "1" {
		for {
		}
	}
	spin := exec.Command(os.Args[0], "-test.run=^TestOthersSeesABusyThread$")
	spin.Env = append(os.Environ(), "PERFRUN_TEST_SPIN=1")
	if err := spin.Start(); err != nil {
		t.Fatal(err)
	}
	defer spin.Wait()
	defer spin.Process.Kill()
	time.Sleep(50 * time.Millisecond) // past its start
	n, ok := Others(150 * time.Millisecond)
	if !ok || n < 1 {
		t.Errorf("Others = %d, %v beside a spinning process, want at least 1", n, ok)
	}
}

// TestOwnThreadsAreOurs: a thread of this process spinning is counted as
// ours, so the Go scheduler's threads, which wake and spin with the
// reader, do not make an idle machine look busy (it said "about 1
// thread of other processes" on every start). One look may find the
// spinning thread parked (its goroutine preempted, a busy machine), so
// it looks up to 20 times; a count that never sees it fails every time.
func TestOwnThreadsAreOurs(t *testing.T) {
	if _, ok := runnable(); !ok {
		t.Skip("this system does not say how many threads are runnable")
	}
	var stop atomic.Bool
	started, done := make(chan struct{}), make(chan struct{})
	go func() {
		runtime.LockOSThread()
		close(started)
		for !stop.Load() {
		}
		close(done)
	}()
	<-started
	n := 0
	for range 20 {
		if n = max(n, ownRunning()); n >= 2 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop.Store(true)
	<-done
	if n < 2 {
		t.Errorf("ownRunning = %d beside a spinning thread of ours, want at least 2 (it and the reader)", n)
	}
}
