// Package foreign is the contract of a benchmark perfrun does not link:
// a program run once per window of a cell, given the cell's thread count
// and the run's corpus as files, that times itself and prints what one
// call took. It reads the command line a user gives (Parse), writes the
// corpus files the program is handed (WriteCorpus), fills the command line
// for a window (Expand), runs it with its output bounded (Run) and reads
// the time it printed (Time). Timing windows, probing the machine around
// them and setting them aside stay with the harness, which measures a
// foreign cell as it measures its own.
//
// Its promise: Command and Parse, Files and WriteCorpus, Expand, Run and
// Time, as the contract on Command says.
package foreign
