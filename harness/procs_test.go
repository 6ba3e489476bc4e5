package harness

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfrun/perfrun/workloads"
)

// TestCgoBatchWindowsHaveASpareP: a window of a store behind cgo
// (BatchTarget set) runs with one spare P, so the runtime's monitor leaves
// its workers' cgo calls alone; any other window runs on exactly its
// thread count.
func TestCgoBatchWindowsHaveASpareP(t *testing.T) {
	for _, c := range []struct {
		batch   time.Duration
		threads int
		procs   int32
	}{{0, 1, 1}, {0, 2, 2}, {5 * time.Millisecond, 1, 2}, {5 * time.Millisecond, 2, 3}} {
		var procs atomic.Int32
		inst := &workloads.Instance{BatchTarget: c.batch, Worker: func(int) workloads.Op {
			return func(int) error {
				procs.Store(int32(runtime.GOMAXPROCS(0)))
				return nil
			}
		}}
		if _, err := measure(t.Context(), inst, c.threads, time.Millisecond, 20*time.Millisecond, memory{}, nil); err != nil {
			t.Fatal(err)
		}
		if procs.Load() != c.procs {
			t.Errorf("batch %v, %d threads: GOMAXPROCS %d in the window, want %d", c.batch, c.threads, procs.Load(), c.procs)
		}
	}
}
