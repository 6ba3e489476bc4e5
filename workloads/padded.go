package workloads

// cacheLine is the size of the coherence unit on the machines perfrun runs
// on (x86-64 and arm64 servers: 64 bytes; Apple's arm64 uses 128, covered
// by padding on both sides).
const cacheLine = 64

// padded holds one worker's mutable state alone in its cache lines. A
// closure that captures a variable it also writes moves that variable to
// the heap, where the tiny allocator packs small values of several workers
// into one 16-byte block: every write of one worker then invalidates the
// other's line. With the index of the lookup rotation there, 2-thread
// throughput flipped between ~16 and ~8 M ops/s from one measurement to
// the next. Padding on both sides keeps the value clear of any neighbour
// whatever the allocation's alignment; hot loops still copy it to a local
// and write it back once per batch.
type padded[T any] struct {
	_ [cacheLine]byte
	v T
	_ [cacheLine]byte
}
