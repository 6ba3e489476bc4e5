// Package harness measures cells — an implementation under a workload, with
// parameter values, on a number of threads — and emits the samples as
// benchfmt records (Results.Set), the one results model every consumer
// reads.
//
// Its opinions: a run is R rounds, and every round measures every cell once
// in a freshly shuffled order, so slow drift of a noisy machine spreads over
// all cells instead of favouring whichever ran first (never AAAA…BBBB).
// Setup is never timed. Workers are goroutines locked to OS threads that
// start together at a barrier, with GOMAXPROCS set to the cell's thread
// count (one more for a store behind cgo, see procsFor), and read the clock once per batch of operations, never per
// operation. ns/op is wall time over all operations, as go test -bench
// reports it; ns/call is the mean over workers of elapsed/ops, the time one
// worker spends per call that the per-thread tables report; ops/s is the
// aggregate throughput.
//
// lock-wait-sec/op counts only time blocked in the runtime on an exclusive
// lock held by another thread. A shared read lock costs cache-line traffic
// instead, which shows in ops/s, not there: "0 lock wait" does not mean "no
// contention".
//
// Its place: above the workloads and the designs, below the registry and
// the reports; it receives implementations as store.Impl values and emits
// records.
//
// Its promise: Plan, Run, Options (start from DefaultOptions), Cell and
// Outcome.Set keep their meaning, and a cell's benchmark name is its
// workload, implementation, parameters and threads in that order, which
// results files, gates and histories key on. Other exported names serve
// perfrun's commands and may change between versions.
package harness
