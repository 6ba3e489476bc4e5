// Package scaling decides a change by what it costs past the runner's
// cores: it predicts a cell of base and of head at many threads from their
// two exact 1-thread lock profiles (package predict's model) and gates the
// ratio of the two predictions, as package compare gates a time.
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
// change the same ratio in every campaign.
//
// No constant is measured per comparison, and no time the comparison
// measured enters: measured on a shared machine they move with its load,
// and a gate whose verdict flips with the neighbour's job is switched off.
// Its opinions: the middle of the prediction decides; the band (the
// reference's lowest and highest constants for both arms alike) is shown,
// never gated; and each cause is weighed by what it alone would change,
// so a reason names the lock that made the difference.
//
// Its promise: Predict (both arms from their counts and the constants
// given), Prediction.Verdict and VerdictAt (the gate at a threshold, with the
// reason in words; a profile no operation can have is refused before
// anything predicts from it), Reference, Instruction, Fixed and DefaultThreads.
package scaling
