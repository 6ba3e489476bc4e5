// Package predict says what a store's lock profile predicts past the
// cores of the machine that measured it: the time one worker spends per
// call, and the throughput, at more threads than there are cores, one core
// a thread.
//
// The model is a closed queueing network solved by exact mean value
// analysis: every thread calls the store again as soon as a call returns;
// each exclusive lock is a queueing centre of its own whose service is the
// time it is held (the profile's instructions under it at the cell's own
// time per instruction) and each waiter ahead adds a hand-off. The queues
// are formed from the profile: the busiest lock (held the longest) one,
// and the others as many queues of equal weight as their acquisitions make
// (records.OtherLocks: a lock split in 64 stripes, each call taking one,
// is 64 queues each met by a 64th of the calls). Each cache line the other
// atomics write (a read lock's reader count, a reference count) is a
// queue too, the hottest one and the rest as lines of equal weight, whose
// service is a transfer between cores; the rest of a call is time each
// thread spends alone. Mean value analysis was chosen over an
// Amdahl bound, which has no queue and so no hand-off that grows with the
// waiters, and over a simulation, which would add noise to an answer the
// inputs fix. The machine's constants — a hand-off and a cache-line
// transfer — are measured on the machine (Measure), never fitted to a
// published table, and their spread over windows makes the band.
//
// What it cannot see: a machine's memory system beyond one cache line
// (the data under a lock moving with it is in the hand-off only as this
// machine moves it), NUMA, a lock's fairness or a holder preempted by the
// scheduler, locks taken in several modes at once, and anything that does
// not show at one thread.
//
// Its promise: Predict, Measure, and Results, which writes a prediction
// as a results file every perfrun reader reads, marked predicted: yes.
package predict
