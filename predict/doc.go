// Package predict says what a store's lock profile predicts past the
// cores of the machine that measured it: the time one worker spends per
// call, and the throughput, at more threads than there are cores, one core
// a thread.
//
// The model is a closed queueing network solved by exact mean value
// analysis: every thread calls the store again as soon as a call returns;
// each exclusive lock is a queueing centre of its own whose service is the
// time it is held (the profile's instructions under it at the cell's own
// time per instruction) and each waiter ahead adds a hand-off: fewer
// where a lock whose waiters spin lets the thread that gave it back take
// it again first, as Go's sync.Mutex does (barging), and every
// acquisition writes the lock's word, a line that moves between cores as
// an atomic's does. The queues are formed from the profile: the busiest
// lock (held the longest) one, and the others as many queues of equal weight as their acquisitions make
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
// machine moves it), NUMA, a lock's fairness beyond barging, a holder
// preempted by the scheduler, locks taken in several modes at once, and
// anything that does not show at one thread.
//
// # A change
//
// A change is decided by what it costs past the runner's cores: Change
// predicts a cell of base and of head at many threads from their two
// exact 1-thread lock profiles and gates the ratio of the two
// predictions, as package compare gates a time.
//
// The question a store's maintainer asks of a pull request is "slower or
// faster at 16 threads, and by how much", which wall time on a 2-core
// runner cannot answer and a lock unit judged on its own answers wrongly
// when a change trades one cause of contention for another (fewer
// acquisitions, each held longer). So both arms are predicted with one set
// of constants fixed in advance (Fixed): a hand-off, a cache-line transfer
// and a time per instruction. At one thread head's predicted time is
// base's scaled by the instruction ratio; past it, what differs is the two
// profiles alone, so identical code predicts a ratio of exactly 1, and one
// change the same ratio in every campaign. Within the cores the runner's
// own constants (RunnerFixed) predict, held to RunnerHeld either way, or
// to WriterHeld where the readers parked for a writer moved.
//
// No constant is measured per comparison, and no time the comparison
// measured enters: measured on a shared machine they move with its load,
// and a gate whose verdict flips with the neighbour's job is switched off.
// The middle of the prediction decides; the band is shown; each cause is
// weighed by what it alone would change, so a reason names the lock that
// made the difference. Every set of constants names where it comes from
// (Measured.Source): measured here, fitted to a named table, or another
// host's.
//
// Its promise: Predict, Measure, and Results, which writes a prediction
// as a results file every perfrun reader reads, marked predicted: yes;
// Change, Prediction.Verdict and VerdictAt (the gate at a threshold, with
// the reason in words; a profile no operation can have is refused before
// anything predicts from it), Reference, Runner, Instruction, Fixed and
// DefaultThreads.
package predict
