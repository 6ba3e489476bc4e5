// Package locks measures a store's lock profile: per operation, how many
// exclusive and shared lock acquisitions it makes, how many instructions it
// executes while it holds a lock (exclusively, and shared), and how many
// atomic read-modify-write instructions it executes. These are what make a
// design contend when many threads run it, and unlike wall time at two
// threads they are exact, the same on every machine and in every process.
//
// How it counts. The cell's operations run on one thread under callgrind
// (--collect-bus counts atomic instructions as "Ge" events) in a binary
// built for lock profiles (Build, and the build tag perfrun_locks): every
// package in the user's folders imports the hooked sync and sync/atomic
// (package hooked) in place of the standard ones, whose sync.Mutex and
// sync.RWMutex tell a hook of every acquisition and release, so any Go
// store is profiled as it is, with no lock type of perfrun's. (Where
// perfrun comes from the module cache, which go build will not overlay,
// the standard sync itself is overlaid: Overlay.) Go's cache keys a
// package by its folder, so the build runs through a link in the user's
// cache that every clone of a module shares: a new clone finds the
// rewritten packages compiled. The hook counts acquisitions per lock, and in
// later passes over the same operations switches callgrind's collection on
// exactly while a chosen lock is held, so callgrind counts the instructions
// executed under it. What the hook itself adds inside a held region is the
// same for every region of a kind of lock, and is measured on an empty
// critical section and taken off. A store behind cgo can report its own
// locks through Register (the real OpenSSL store wraps libcrypto's pthread
// read/write locks).
//
// What a profile cannot see: locks other than sync.Mutex, sync.RWMutex and
// what a Source reports (channels, sync.Map's internal locks, the
// runtime's, and in a hooked build the standard library's and those of
// modules in the module cache), how long another thread waits, and what a cache line costs
// on a given machine; it counts what causes contention, not contention.
//
// Its promise: Overlay, the Profile a child prints (Run) and the parent
// reads (Count), and the units of a profile (Units), each assume=exact.
package locks
