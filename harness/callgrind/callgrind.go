package callgrind

import "unsafe"

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
