// Package locks measures a store's lock profile: per operation, how many
// exclusive and shared lock acquisitions it makes, how many instructions it
// executes while it holds a lock (exclusively, and shared), and how many
// atomic read-modify-write instructions it executes. These are what make a
// design contend when many threads run it, and unlike wall time at two
// threads they are exact, the same on every machine and in every process.
//
// How it counts. The cell's operations run on one thread under callgrind
// (--collect-bus counts atomic instructions as "Ge" events) in a binary
// built for lock profiles (Build, and the build tag perfrun_locks) with an
// overlay of the standard sync and sync/atomic: sync.Mutex's and
// sync.RWMutex's methods tell a hook of every acquisition and release, and
// sync/atomic's types of every write, so every lock a call takes through
// sync is seen wherever it is taken — the store's, the standard library's
// (log's writer lock, sync.Once's, sync.Pool's slow path) or a module's —
// and any Go store is profiled as it is, with no lock type of perfrun's.
// A lock built on a word of sync/atomic's types, taken by a
// CompareAndSwap and given back by a Store, is seen by its word: a word
// each of whose swaps a Store gives back is an exclusive lock whose
// waiters spin (spins).
// The hook counts acquisitions per lock and keeps the call that first took
// each; locks taken at one call (the stripes of one lock) are a group. In
// later passes over the same operations it switches callgrind's collection
// on exactly while a lock of a mode is held, and while one of a group is,
// so callgrind counts the instructions executed under each; a group's are
// shared by its locks as their acquisitions are. What the hook itself adds
// inside a held region is the same for every region of a kind of lock,
// and is measured on an empty critical section and taken off. A store
// behind cgo can report its own locks through Register (the real OpenSSL
// store wraps libcrypto's pthread read/write locks).
//
// What a profile cannot see, it names (Unseen): the runtime's locks (a
// channel's, a timer's, the allocator's), internal/sync's (sync.Map's), and
// a C library's where no Source reports them, each by the atomics the
// functions that take it execute. A lock on a word taken by sync/atomic's
// functions (atomic.CompareAndSwapInt32), which no hook reports, or by a
// Swap, is counted as its atomics, on one line. It cannot see how long another thread
// waits, or what a cache line costs on a given machine; it counts what
// causes contention, not contention.
//
// Its promise: Overlay, the Profile a child prints (Run) and the parent
// reads (Count), and the units of a profile (Units), each assume=exact.
package locks
