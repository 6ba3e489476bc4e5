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

// BatchSize is how many operations Batches runs between yields: few
// enough that a batch of microsecond operations ends well within the
// 10 ms after which the Go runtime preempts a goroutine, even at
// callgrind's speed. A count of n operations must make n a multiple of it
// (Round), so that the batches' own few instructions are the same share of
// every operation whatever n is.
const BatchSize = 16

// Round returns the least count of operations, at least n, that is a
// multiple of BatchSize and of unit (a workload's rotation, or 1).
func Round(n, unit int) int {
	m := BatchSize
	for m%max(unit, 1) != 0 {
		m += BatchSize
	}
	return (max(n, 1) + m - 1) / m * m
}

// Batches runs n operations through run in batches of BatchSize and
// yields the thread between batches, calling around (if set) just before
// and just after each yield, to switch collection off across it. A
// goroutine that runs 10 ms without being rescheduled is preempted by the
// Go runtime at a moment that depends on wall time, and the scheduler's
// work would enter the count; a yield every few milliseconds leaves the
// runtime nothing to preempt.
func Batches(n int, run func(k int) error, around func()) error {
	for done := 0; done < n; done += BatchSize {
		if err := run(min(BatchSize, n-done)); err != nil {
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
