package harness

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfrun/perfrun/records"
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

// TestYieldIsNotTheStores: a cgo store's worker yields between batches
// (procsFor); that time is the harness's, so ns/call (the worker's time
// per call) leaves it out, while ns/op (the window's wall time per call)
// keeps it. Here each batch sleeps 1 ms and each yield 3 ms.
func TestYieldIsNotTheStores(t *testing.T) {
	defer func(y func()) { yieldBatch = y }(yieldBatch)
	yieldBatch = func() { time.Sleep(3 * time.Millisecond) }
	inst := &workloads.Instance{BatchTarget: time.Millisecond, Worker: func(int) workloads.Op {
		return func(int) error {
			time.Sleep(time.Millisecond)
			return nil
		}
	}}
	m, err := measure(t.Context(), inst, 1, 5*time.Millisecond, 80*time.Millisecond, memory{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var call, op float64
	for _, v := range m {
		switch v.Unit {
		case records.NsPerCall:
			call = v.Value
		case records.NsPerOp:
			op = v.Value
		}
	}
	if call <= 0 || op < 2*call {
		t.Errorf("ns/call %.0f, ns/op %.0f: want ns/op about 4× ns/call (each 1 ms batch followed by a 3 ms yield the worker's time leaves out)", call, op)
	}
}
