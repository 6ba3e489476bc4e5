package callgrind

import (
	"runtime"
	"unsafe"
)

// The requests of callgrind.h, numbered from the tool's base 'C','T'.
const (
	base = 'C'<<24 | 'T'<<16

	dumpStatsAt          = base + 3
	toggleCollect        = base + 2
	startInstrumentation = base + 4
)

// StartInstrumentation asks callgrind, when the process runs under it
// with --instr-atstart=no, to start instrumenting: the setup before it then
// runs at valgrind's plain speed instead of callgrind's.
func StartInstrumentation() { request(&[6]uint64{startInstrumentation}) }

// ToggleCollect switches the collection of costs of the calling thread
// off if it was on, and on if it was off.
func ToggleCollect() { request(&[6]uint64{toggleCollect}) }

// DumpStats writes what was collected since the last dump into a dump
// file of its own, whose trigger line names it by label, and zeroes the
// costs.
func DumpStats(label string) {
	b := append([]byte(label), 0)
	request(&[6]uint64{dumpStatsAt, uint64(uintptr(unsafe.Pointer(&b[0])))})
	keep(b)
}

// keep holds b alive until the request that reads it has returned.
//
//go:noinline
func keep(b []byte) {}

// batches is how many batches Batches splits operations into: at a
// count's budget, about 20 µs of work each, a few milliseconds under
// callgrind.
const batches = 1000

// Batches runs n operations through run in batches of about a thousandth
// of n and yields the thread between batches, calling around (if set)
// just before and just after each yield, to switch collection off across
// it. A goroutine that runs 10 ms without being rescheduled is preempted
// by the Go runtime at a moment that depends on wall time, and the
// scheduler's work would enter the count; a yield every few milliseconds
// leaves the runtime nothing to preempt.
func Batches(n int, run func(k int) error, around func()) error {
	size := max(1, n/batches)
	for done := 0; done < n; done += size {
		if err := run(min(size, n-done)); err != nil {
			return err
		}
		if around != nil {
			around()
		}
		runtime.Gosched()
		if around != nil {
			around()
		}
	}
	return nil
}
