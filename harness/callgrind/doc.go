// Package callgrind counts a program's instructions with valgrind's
// callgrind, and speaks to callgrind from inside the process it runs:
// the client requests that start instrumentation, switch the collection
// of costs on and off, and dump what was collected so far.
//
// A client request is a sequence of no-op rotations that valgrind
// recognises; run natively it does nothing, so code that asks callgrind
// for something runs unchanged outside it. Only amd64 has the sequence
// here: elsewhere Requests is false and every request does nothing.
//
// From outside, Count runs a program under callgrind and returns the
// instructions it executed inside CountedOps alone, which the program
// reaches through CountOps; Instructions does that in several processes.
//
// Its promise: requests that are harmless natively, Requests saying
// whether this build can make them at all, and counts of exactly the
// operations a program runs through CountOps (Count, Instructions).
package callgrind
