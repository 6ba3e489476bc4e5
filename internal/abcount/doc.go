// Package abcount takes the counts that sit beside ab's time verdict:
// instructions/op and the lock profile of every single-threaded store cell
// in both revisions' binaries, on the same corpus and operations, judged
// at ab's threshold, and the files ab -report records them in and -replay
// judges again.
//
// Its place: above the harness, whose counting it drives, and below the
// CLI, which only wires it; a count is exact or says why it is not, and
// nothing is timed while one runs.
package abcount
