// Package callgrind speaks to valgrind's callgrind from inside the process
// it runs: the client requests that start instrumentation, switch the
// collection of costs on and off, and dump what was collected so far.
//
// A client request is a sequence of no-op rotations that valgrind
// recognises; run natively it does nothing, so code that asks callgrind
// for something runs unchanged outside it. Only amd64 has the sequence
// here: elsewhere Requests is false and every request does nothing.
//
// Its promise: requests that are harmless natively, and Requests saying
// whether this build can make them at all.
package callgrind
