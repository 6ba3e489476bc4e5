package records

import (
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
)

// The units perfrun writes. Time is written in nanoseconds, as go test
// writes it; readers see it tidied to seconds (Tidy).
const (
	// NsPerOp is wall time over all operations of all workers, what
	// go test -bench reports as ns/op.
	NsPerOp = "ns/op"
	// NsPerCall is the time one worker spends per call: the mean over
	// workers of each worker's time in its batches over its operations
	// (a store behind cgo yields between batches; the yields are the
	// harness's and left out). It is the number OpenSSL's perftools and
	// the per-thread tables report; at n threads that all run in parallel it
	// is about n × ns/op.
	NsPerCall = "ns/call"
	// OpsPerSec is aggregate throughput: all operations over wall time.
	OpsPerSec   = "ops/s"
	BPerOp      = "B/op"
	AllocsPerOp = "allocs/op"
	// LockWait counts only time blocked in the runtime on a lock, in
	// seconds: often exactly 0, and benchfmt's reader leaves a unit with
	// "ns" in it untidied when its value is 0, so lock-wait-ns/op would
	// read as two units in one file.
	LockWait     = "lock-wait-sec/op"
	GCCycles     = "gc-cycles"
	Instructions = "instructions/op"
	// The lock profile of one operation (package harness/locks), exact
	// counts: lock acquisitions, exclusive and shared; the instructions
	// executed while a lock is held exclusively, and shared; the atomic
	// read-modify-write instructions.
	ExclusiveLocks           = "exclusive-locks/op"
	SharedLocks              = "shared-locks/op"
	LockedInstructions       = "locked-instructions/op"
	SharedLockedInstructions = "shared-locked-instructions/op"
	Atomics                  = "atomics/op"
	// The busiest exclusive lock of a profile, the one an operation holds
	// exclusively for the most instructions: its acquisitions and those
	// instructions per operation. A model of the store past the cores
	// (package predict) queues on it apart from the others.
	BusiestLocks              = "busiest-lock-acquisitions/op"
	BusiestLockedInstructions = "busiest-locked-instructions/op"
	// How an operation's atomics besides its exclusive locks' own spread
	// over cache lines, as one thread sees them (locks.Lines), in the
	// writes that may find their line taken by another thread: those of
	// the line with the most, how many lines of equal weight the rest
	// make, and the rest's. The model past the cores queues on each line
	// apart.
	HottestLineTransfers = "hottest-line-transfers/op"
	OtherLines           = "other-lines"
	OtherLineTransfers   = "other-line-transfers/op"
	// How many locks of equal weight a profile's exclusive locks besides
	// the busiest make, by their acquisitions (locks.Profile.OtherLocks):
	// each queues on its own past the cores.
	OtherLocks = "other-locks"
	// Whether the busiest exclusive lock's waiters spin before they sleep
	// (1: Go's sync.Mutex and sync.RWMutex) or sleep at once (0: a C
	// library's lock, one of the program's own), and the acquisitions per
	// operation of the other exclusive locks whose waiters spin: the two
	// hand a lock over at different costs. A profile without them has
	// every waiter sleep, as the reference hand-off was fitted.
	BusiestLockSpins   = "busiest-lock-spins"
	OtherSpinningLocks = "other-spinning-locks/op"
	// The atomics per operation of the locks a profile cannot see (the
	// runtime's, internal/sync's, a C library's no source reports): a
	// prediction names them as its blind spot.
	UnseenLockAtomics = "unseen-lock-atomics/op"
	// An operation's reads (sync/atomic's Loads) of lines operations also
	// write, each its first touch of the line since it began or took or
	// gave back a lock (locks.Reads), and how many times an operation
	// writes the lines read, weighted by the reads: a read of a line
	// another thread wrote brings the line as a write does.
	WrittenLineReads = "written-line-reads/op"
	ReadLineWrites   = "read-line-writes/op"
	// An operation's acquisitions of the read-write locks it takes both
	// ways (locks.Writers): exclusively (a writer) and shared (readers,
	// which wait where a writer holds the lock or waits for it).
	WriterLocks     = "writer-locks/op"
	WriterLockReads = "writer-lock-reads/op"
	// What an operation does beside its instructions, counted under
	// callgrind with a simulated cache of a fixed geometry: the misses of
	// its first-level caches and of its last level, and its system calls.
	L1Misses = "l1-misses/op"
	LLMisses = "ll-misses/op"
	Syscalls = "syscalls/op"
	// NsPerAdd is the load workload's time one worker spends per Add.
	NsPerAdd = "ns/add"
	// BPerObject is the live heap of a loaded store over its objects.
	BPerObject = "B/object"

	// What the kernel saw of the workers in a window (Linux).

	// CPUPerOp is the CPU time the workers' threads got over all their
	// operations; below ns/call × threads when workers slept on a lock.
	CPUPerOp = "cpu-ns/op"
	// RunQueue is the largest fraction of the window any worker spent
	// runnable but waiting for a CPU: near 0 when each had a core of its
	// own, about 0.5 when a worker shared its core with a busy process. A
	// worker woken from a lock waits a little too.
	RunQueue = "runq-frac"
	// Fairness is the fewest operations any worker completed over the
	// most: 1 when the workers shared the work evenly.
	Fairness = "worker-min/max"
	// Steal is the fraction of the machine's CPU time the hypervisor gave
	// to others during the window.
	Steal = "steal-frac"
	// Probe is the machine's speed right after the window: the control
	// cell's work, run for a few milliseconds on the window's thread
	// count, as time one worker spends per call. A window the host slowed
	// shows here as a slower probe, whatever the store did.
	Probe = "probe-ns/call"
	// FloorProbe is the machine's speed for a lookup right after the
	// window: the floor of the cell's workload (a Go map looked up by the
	// same keys), run for a few milliseconds on the window's thread count.
	FloorProbe = "floor-probe-ns/call"
	// TransferProbe is what one write cost right after the window when
	// the other of the window's first two cores wrote its cache line last,
	// in seconds (a zero of a nanosecond unit would not read back tidied):
	// which pair of cores the host gave the window, for a change whose
	// cost is a shared line.
	TransferProbe = "transfer-probe-sec/write"
)

// LockUnits are the units of a lock profile, in the order perfrun writes
// them.
var LockUnits = []string{ExclusiveLocks, SharedLocks, LockedInstructions, SharedLockedInstructions, Atomics}

// TrafficUnits are what a count sees of an operation's memory and system
// calls, in the order perfrun writes them.
var TrafficUnits = []string{L1Misses, LLMisses, Syscalls}

// BusiestLockUnits describe a profile's busiest exclusive lock; perfrun
// writes them after LockUnits and gates on LockUnits alone.
var BusiestLockUnits = []string{BusiestLocks, BusiestLockedInstructions}

// LineUnits describe the lines a profile's atomics write; perfrun writes
// them after BusiestLockUnits and gates on neither. A profile without
// them (an older file's) has every atomic on one line.
var LineUnits = []string{HottestLineTransfers, OtherLines, OtherLineTransfers}

// SpreadUnits describe how a profile's exclusive locks spread over locks
// and what it could not see; perfrun writes them after LineUnits and gates
// on neither. A profile without them (an older file's) has its other
// locks as one and names no blind spot.
var SpreadUnits = []string{OtherLocks, BusiestLockSpins, OtherSpinningLocks, UnseenLockAtomics}

// ReadUnits describe a profile's reads of lines other calls write; perfrun
// writes them after SpreadUnits and gates on neither. A profile without
// them (an older file's) reads no written line.
var ReadUnits = []string{WrittenLineReads, ReadLineWrites}

// WriterUnits describe a profile's read-write locks taken both ways;
// perfrun writes them after ReadUnits and gates on neither. A profile
// without them (an older file's) takes no lock both ways.
var WriterUnits = []string{WriterLocks, WriterLockReads}

// Tidy returns the unit as a Set holds it: benchunit's tidied form
// (ns/op -> sec/op, ns/call -> sec/call).
func Tidy(unit string) string {
	_, u := benchunit.Tidy(1, unit)
	return u
}

// Value makes a benchfmt value of v in unit, tidied as benchfmt's reader
// would tidy it, so records made in memory equal records read back.
func Value(v float64, unit string) benchfmt.Value {
	tv, tu := benchunit.Tidy(v, unit)
	if tu == unit {
		return benchfmt.Value{Value: v, Unit: unit}
	}
	return benchfmt.Value{Value: tv, Unit: tu, OrigValue: v, OrigUnit: unit}
}

// Metadata is the unit metadata perfrun writes: what is better for units
// where higher is, and which units are exact counts.
func Metadata(units []string) []*benchfmt.UnitMetadata {
	var out []*benchfmt.UnitMetadata
	add := func(unit, key, value string) {
		out = append(out, &benchfmt.UnitMetadata{
			UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: Tidy(unit), Key: key}, OrigUnit: unit, Value: value})
	}
	for _, u := range units {
		switch {
		case u == AllocsPerOp || slices.Contains(LockUnits, u) || slices.Contains(BusiestLockUnits, u) || slices.Contains(LineUnits, u) || slices.Contains(SpreadUnits, u) || slices.Contains(ReadUnits, u) || slices.Contains(WriterUnits, u):
			// Counted for one worker alone: the same in every process.
			add(u, "assume", "exact")
		case u == OpsPerSec || strings.HasSuffix(u, "-ops/s") || u == Fairness:
			add(u, "better", "higher")
		}
	}
	return out
}

// FormatValue prints a value of a tidied unit with benchunit's scaling, as
// benchstat prints it: 1.23µ for 1.23e-6 sec/op, 15.9M for ops/s.
func FormatValue(v float64, unit string) string {
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}
