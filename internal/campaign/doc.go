// Package campaign is perfrun ab's decision: one A/B campaign from two
// revisions (or two prebuilt binaries) to one verdict at the thread counts
// a project declares. The CLI parses ab's flags into a Campaign and prints
// what Run or Replay returns; everything between lives here.
//
// The rules, in the order they apply:
//
//  1. Time. Base, head and base again (the A/A arm) are measured window by
//     window in rounds (package ab), and each cell at 1 and 2 threads is
//     judged on the paired per-round ratio (compare.Sequential): PASS,
//     REGRESSION, IMPROVED or INCONCLUSIVE at the threshold. Undecided
//     cells get further looks, within -looks and -budget; a cell the
//     counts decide (compare.SettledByCounts) or a count not declared gets
//     none.
//  2. Counts, after the first look, at 1 thread under callgrind:
//     instructions/op, simulated cache misses and system calls, and the
//     lock profile (exclusive and shared locks, instructions held, atomics).
//     Each is exact, so each is gated at the threshold as a count.
//  3. The prediction past the cores, from the two arms' counts and fixed
//     constants alone (scaling.Fixed): never a window of this campaign, so
//     a busy host moves no prediction, identical code predicts exactly 1,
//     and one change predicts the same ratio in every campaign. A change
//     that trades one lock unit for another is weighed by it.
//  4. The declared counts (-at, default 1,2,16). Each has its witnesses:
//     at 1 thread, time and the exact counts; at a count up to the cores,
//     time; past them, the prediction; the lock units speak of every count
//     past 1. A verdict that speaks of no declared count is shown, not
//     gated.
//  5. Verdicts by counts, unless -strict. A time cell that could not decide
//     is decided by the counts where none of its design's counts is worse:
//     IMPROVED where the prediction at its thread count improves past the
//     threshold (at 1 thread, the instructions), else PASS. Never over time
//     that saw a slowdown wholly past the threshold, nor over a cell with
//     no complete round: such a cell stays INCONCLUSIVE and says why.
//  6. One verdict. Any REGRESSION fails; a design better at one declared
//     count and worse at another is a TRADE, named in a line with both
//     figures, and fails too (exit 1) unless a REGRESSION elsewhere makes
//     the whole a REGRESSION. A project that cares about its servers alone
//     declares -at 16, one that cares about one connection -at 1.
//
// Its place: above abcount and ab, whose counting and arms it drives, and
// below the CLI.
package campaign
