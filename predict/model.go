package predict

import (
	"fmt"
	"math"
)

// A Cell is what the model knows of one store cell, all measured at one
// thread: its time per call, its instructions per operation and its lock
// profile (records.LockUnits).
type Cell struct {
	Name string
	// PerCall is one worker's time per call at one thread, in seconds;
	// PerCallLo and PerCallHi its median's 95% interval (the rounds'
	// range when they are too few for one, records.Interval): the band
	// carries it.
	PerCall, PerCallLo, PerCallHi float64
	// Instructions per operation: with PerCall, the time an instruction
	// of this cell takes.
	Instructions float64
	// ExclusiveLocks and LockedInstructions: acquisitions and
	// instructions held exclusively, per operation; SharedLocks and
	// SharedLocked the same of locks held shared (their line's writes are
	// among Atomics).
	ExclusiveLocks, LockedInstructions float64
	SharedLocks, SharedLocked          float64
	// Atomics are the atomic read-modify-writes per operation, the
	// exclusive locks' own (two an acquisition) included.
	Atomics float64
	// BusiestLocks and BusiestLocked are the acquisitions and the
	// instructions held of the lock held exclusively the longest, where
	// the profile names it (records.BusiestLockUnits); zero: all the
	// exclusive locks are taken as one.
	BusiestLocks, BusiestLocked float64
	// OtherLocks is how many locks of equal weight the exclusive locks
	// besides the busiest make (records.OtherLocks): 63 for the other
	// stripes of a lock split in 64. Zero: they are taken as one.
	OtherLocks float64
	// BusiestSpins is 1 where the busiest lock's waiters spin before they
	// sleep (Go's sync locks), 0 where they sleep at once; OtherSpinning
	// the other locks' acquisitions per operation whose waiters spin
	// (records.BusiestLockSpins, records.OtherSpinningLocks). Each kind is
	// handed over at its own cost (Constants.Spin, Constants.Handoff).
	// Kinds says the profile told them; one from before them has every
	// waiter sleep, as the reference hand-off was fitted.
	BusiestSpins, OtherSpinning float64
	Kinds                       bool
	// BusiestSite, where known, is the function that took the busiest
	// lock, for a reason to name it.
	BusiestSite string
	// HottestSite and OtherLineSite, where known, say what the hottest
	// shared line is and what the rest's busiest is, each with the
	// function that first wrote it ("the reader count of a read lock
	// taken in F", "a word written in F"), for a reason to name them.
	HottestSite, OtherLineSite string
	// Unseen are the atomics per operation of locks the profile cannot
	// see (records.UnseenLockAtomics): among Atomics, but no lock's.
	Unseen float64
	// HottestLine, OtherLines and OtherLineTransfers are how the atomics
	// besides the exclusive locks' own spread over cache lines
	// (records.LineUnits), in the writes that may find their line taken by
	// another thread: per operation those of the line with the most, how
	// many lines of equal weight the rest make, and the rest's. Zero
	// HottestLine: every such atomic is on one line, each a transfer.
	HottestLine, OtherLines, OtherLineTransfers float64
	// Reads are the reads per operation of lines operations also write
	// (records.WrittenLineReads), and ReadLineWrites how many times an
	// operation writes the lines read (records.ReadLineWrites). The model
	// does not charge them: a reason names them as its blind spot
	// (results/scaling/runner/placement says why).
	Reads, ReadLineWrites float64
	// Writers and WriterReads are the acquisitions per operation of the
	// read-write locks an operation takes both ways (records.WriterLocks,
	// records.WriterLockReads): exclusively, and shared. The model parks
	// the readers that come while a writer waits or holds (writerWaits).
	Writers, WriterReads float64
}

// SharedAtomics are the atomics per operation besides the exclusive
// locks' own two an acquisition: the writes to lines other threads write.
func (c Cell) SharedAtomics() float64 { return math.Max(0, c.Atomics-2*c.ExclusiveLocks) }

// Lines are the transfers a call makes of the hottest line and of the
// others, and how many others: every atomic besides the exclusive locks'
// own on one line, each a transfer, where the profile does not spread
// them.
func (c Cell) Lines() (hot, rest, others float64) {
	shared := c.SharedAtomics()
	if !(c.HottestLine > 0) {
		return shared, 0, 0
	}
	hot = math.Min(c.HottestLine, shared)
	rest = math.Min(c.OtherLineTransfers, shared-hot)
	if !(rest > 0) {
		return hot, 0, 0
	}
	return hot, rest, math.Max(1, c.OtherLines)
}

// queues are the exclusive locks the model queues on, each lock a queue
// of its own: the busiest, and the others as others queues of equal
// weight, each visited by its share of the calls. Where the profile names
// no busiest lock, all its locks are taken as one queue; where it does
// not say how the others spread, they are taken as one.
func (c Cell) queues() (acquired, held [2]float64, others float64) {
	if !(c.BusiestLocks > 0) {
		return [2]float64{c.ExclusiveLocks, 0}, [2]float64{c.LockedInstructions, 0}, 1
	}
	return [2]float64{c.BusiestLocks, math.Max(0, c.ExclusiveLocks-c.BusiestLocks)},
		[2]float64{c.BusiestLocked, math.Max(0, c.LockedInstructions-c.BusiestLocked)},
		math.Max(1, c.OtherLocks)
}

// KnowsItsLocks says whether c can be predicted with constants whose
// hand-offs differ by kind: it takes no exclusive lock, or its profile
// says which of its locks' waiters spin.
func (c Cell) KnowsItsLocks() bool { return c.Kinds || !(c.ExclusiveLocks > 0) }

// spinning is how many of a queue's acquisitions (the busiest's, i 0, or
// the others', i 1) are of locks whose waiters spin first.
func (c Cell) spinning(i int, acquired float64) float64 {
	if i == 0 {
		if !(c.BusiestLocks > 0) {
			return 0 // the locks as one queue, as a profile that names no busiest
		}
		return acquired * c.BusiestSpins
	}
	return math.Min(acquired, c.OtherSpinning)
}

// handoffs are the hand-offs per call of a queue's acquired acquisitions,
// held seconds a call, spinning of them of locks whose waiters spin
// first, with queued calls ahead of an arrival and gap seconds a thread
// spends away from the lock between two of its acquisitions: a waiter
// that spins takes the lock at Spin where its wait (each call ahead
// holding and handing over) ends within SpinFor, and parks to be woken at
// Handoff where it does not, as Go's sync.Mutex does. While its waiter
// spins, such a lock lets the thread that gave it back take it again
// first (barging): the waiter's turn comes only where the releaser's gap
// outlasts the line's move to the waiter (Barged), so a short gap hands
// over rarely. A waiter that parked long is handed the lock directly.
func (k Constants) handoffs(acquired, spinning, held, queued, gap float64) float64 {
	spin := k.SpinHandoff() * k.Barged(gap)
	if acquired > 0 && queued*(held/acquired+k.SpinHandoff()) > k.SpinFor {
		spin = k.Handoff
	}
	return spinning*spin + (acquired-spinning)*k.Handoff
}

// Barged is the share of a spinning lock's contended acquisitions that
// go to the waiter, not back to the thread that released it: gap, the
// releaser's time away from the lock, over gap and the transfer that
// brings the lock's line to the waiter's core. Without a transfer every
// one is a hand-off.
func (k Constants) Barged(gap float64) float64 {
	if !(k.Transfer > 0) {
		return 1
	}
	return gap / (gap + k.Transfer)
}

// SpinHandoff is the hand-off to a waiter that spins first: Spin, or,
// where k has none, Handoff.
func (k Constants) SpinHandoff() float64 {
	if k.Spin > 0 {
		return k.Spin
	}
	return k.Handoff
}

// Constants are what the machine charges for contention, measured on it
// (Measure): never fitted to a published table.
type Constants struct {
	// Handoff is what an exclusive lock costs beyond its uncontended
	// acquire and release when another thread waits for it asleep, as a
	// C library's lock's waiters do at once: the waiter's wake-up and the
	// lock's and the protected data's cache lines moving to its core, in
	// seconds per acquisition.
	Handoff float64
	// Spin is the same for a lock whose waiters spin before they sleep
	// (Go's sync.Mutex and sync.RWMutex): a spinning waiter takes the lock
	// as its line comes, so a short hold is handed over at the cost of the
	// line, not of a wake-up. Zero: as Handoff.
	Spin float64
	// SpinFor is how long such a waiter spins before it parks: a wait
	// past it is handed over at Handoff, as a sleeping waiter's.
	SpinFor float64
	// Transfer is what an atomic write costs when another core wrote its
	// cache line last, in seconds: one move of the line, half a turn of
	// two threads that write it in turn, each waiting to see the other's
	// write (a turn moves it to the waiter's read, then takes it for its
	// write).
	Transfer float64
	// Instruction, where set, is what one instruction of a call takes, in
	// seconds: the cell's time at one thread is then its instructions at
	// this rate, not its measured PerCall, so a prediction depends on
	// counts and constants alone. Zero: the cell's own PerCall over its
	// Instructions.
	Instruction float64
}

// perCall is the time one worker spends per call at each of threads, one
// core a thread, by exact mean value analysis of a closed queueing network
// (a thread is a customer that calls again as soon as it returns): each
// exclusive lock queue (Cell.queues) is a centre whose service is the
// time its lock is held, and a waiter ahead in its queue adds a hand-off
// per acquisition (fewer where the releaser barges, handoffs); each
// acquisition writes its lock's word, a line of its own moved as the
// lines of atomics are; the cache lines the other atomics write are others
// (the hottest line, and the rest as lines of equal weight, Cell.lines),
// whose service is a transfer, paid past one thread on every write the
// profile counts, since the threads write a line in turn; the rest of a
// call is a delay every thread spends alone. At one thread it is the
// measured time (or the instructions at k.Instruction). Each exclusive
// lock is a queue of its own: the busiest, and the others as lines are,
// queues of equal weight (the stripes of a lock split in many are many
// queues, each met held a stripe's share of the time). Shared locks cost
// only their atomics: readers do not wait for each other, and their
// reader count is a line.
func perCall(c Cell, k Constants, threads []int) ([]float64, error) {
	most := 0
	for _, n := range threads {
		most = max(most, n)
	}
	at, _, err := mva(c, k, most)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(threads))
	for i, n := range threads {
		out[i] = at[n]
	}
	return out, nil
}

// Terms are what the model makes one call's time at a thread count of,
// in seconds: the work each thread does alone; the time in the busiest
// exclusive lock's queue and in the other locks' (their held time and
// their words' transfers included); and the time the hottest shared
// line, and the others, take to come to the thread's core.
type Terms struct{ Alone, Busiest, Others, Hot, Rest, Writer float64 }

// Locks is the time in every exclusive lock's queue.
func (t Terms) Locks() float64 { return t.Busiest + t.Others }

// Line is the time every shared line takes to come.
func (t Terms) Line() float64 { return t.Hot + t.Rest }

// TermsAt are the terms of c's call at n threads, with the constants k.
func TermsAt(c Cell, k Constants, n int) (Terms, error) {
	_, t, err := mva(c, k, max(n, 1))
	return t, err
}

// mva is perCall's analysis from 1 to most threads: the time per call at
// each, and its terms at most.
func mva(c Cell, k Constants, most int) (map[int]float64, Terms, error) {
	if !(c.Instructions > 0) || !(c.PerCall > 0) && !(k.Instruction > 0) {
		return nil, Terms{}, fmt.Errorf("%s: needs a time per call and instructions/op at one thread", c.Name)
	}
	one, perInstr := c.PerCall, c.PerCall/c.Instructions
	if k.Instruction > 0 {
		one, perInstr = k.Instruction*c.Instructions, k.Instruction
	}
	acquired, heldInstr, others := c.queues()
	var held, spinning [2]float64
	for i := range held {
		held[i], spinning[i] = heldInstr[i]*perInstr, c.spinning(i, acquired[i])
	}
	hot, rest, lines := c.Lines()
	hot, rest = hot*k.Transfer, rest*k.Transfer
	alone := math.Max(0, one-held[0]-held[1])
	at := make(map[int]float64, most)
	var qLock, qWord [2]float64 // mean queue lengths at n-1 threads
	var qHot, qRest float64
	working := one // a call's time at n-1 threads, asleep for no writer
	var last Terms
	// A thread's time away from one of a queue's locks between two of its
	// acquisitions: the others' are spread over others locks.
	var gap [2]float64
	for i, locks := range [2]float64{1, others} {
		if acquired[i] > 0 {
			gap[i] = math.Max(0, locks*one-held[i]) / acquired[i]
		}
	}
	for n := 1; n <= most; n++ {
		// Past one thread a counted write finds its line away: threads
		// that call again and again write a shared line in turn, not at
		// random (results/scaling/runner/lines).
		other := 0.0
		if n > 1 {
			other = 1
		}
		var rLock, rWord [2]float64
		for i := range rLock {
			handoff := k.handoffs(acquired[i], spinning[i], held[i], qLock[i], gap[i])
			rLock[i] = held[i] + (held[i]+handoff)*qLock[i]
			// Every acquisition writes the lock's word: a transfer where
			// another thread wrote it last.
			rWord[i] = acquired[i] * k.Transfer * other * (1 + qWord[i])
		}
		rHot := hot * other * (1 + qHot)
		rRest := rest * other * (1 + qRest)
		r := alone + rLock[0] + rLock[1] + rWord[0] + rWord[1] + rHot + rRest
		// A writer's readers sleep while every thread waits on it: time
		// the queues stand still, added to the call, not spread among them.
		// A thread asleep is parked by no other writer, so the share of its
		// time asleep is λH/(1+λH), λ the rate its working time meets
		// writers that park it: the call is r/(1−share), the root of
		// R² = r·R + r·sleep, where sleep is writerWaits' sleep a call.
		sleep := k.writerWaits(c, perInstr, working, n)
		rWriter := (math.Sqrt(r*r+4*r*sleep) - r) / 2
		working = r
		x := float64(n) / r // calls per second, all threads
		// At one of the other locks, and of the other lines: each of equal
		// weight, so a queue holds its share of their time.
		qLock[0], qLock[1], qHot = x*rLock[0], x*rLock[1]/others, x*rHot
		qWord[0], qWord[1] = x*rWord[0], x*rWord[1]/others
		if lines > 0 {
			qRest = x * rRest / lines
		}
		at[n] = r + rWriter
		last = Terms{alone, rLock[0] + rWord[0], rLock[1] + rWord[1], rHot, rRest, rWriter}
	}
	return at, last, nil
}

// A Band is a prediction at each thread count: the time per call with the
// machine's constants at their lowest and highest measured, and between.
type Band struct {
	Threads        []int
	Low, Mid, High []float64
}

// Predict gives each thread count's time per call from the cell's
// profile with the constants at low, mid and high.
func Predict(c Cell, low, mid, high Constants, threads []int) (Band, error) {
	b := Band{Threads: threads}
	var err error
	for _, x := range []struct {
		k   Constants
		out *[]float64
	}{{low, &b.Low}, {mid, &b.Mid}, {high, &b.High}} {
		if *x.out, err = perCall(c, x.k, threads); err != nil {
			return Band{}, err
		}
	}
	return b, nil
}

// WhyWide names the input that makes a cell's band at n threads widest
// and how many times wider its high edge is than its low there, were it
// the only input to vary: the hand-off, the cache-line transfer or the
// 1-thread time's interval. "" where the band is not twice as wide as
// low, or the cell cannot be predicted.
func WhyWide(c Cell, m Measured, n int) (string, float64) {
	at := func(c Cell, k Constants) float64 {
		t, err := perCall(c, k, []int{n})
		if err != nil {
			return math.NaN()
		}
		return t[0]
	}
	lo, hi := c, c
	lo.PerCall, hi.PerCall = c.PerCallLo, c.PerCallHi
	whole := at(hi, m.High) / at(lo, m.Low)
	if !(whole >= 2) {
		return "", whole
	}
	mid := m.Mid
	inputs := []struct {
		what   string
		lo, hi float64
	}{
		{fmt.Sprintf("the hand-off (%.0f ns a spinning waiter, %.0f ns a sleeping one)", 1e9*m.Low.Handoff, 1e9*m.High.Handoff),
			at(c, Constants{Handoff: m.Low.Handoff, Transfer: mid.Transfer}), at(c, Constants{Handoff: m.High.Handoff, Transfer: mid.Transfer})},
		{fmt.Sprintf("the cache-line transfer (%.0f to %.0f ns)", 1e9*m.Low.Transfer, 1e9*m.High.Transfer),
			at(c, Constants{Handoff: mid.Handoff, Transfer: m.Low.Transfer}), at(c, Constants{Handoff: mid.Handoff, Transfer: m.High.Transfer})},
		{fmt.Sprintf("the 1-thread time's interval (%.0f to %.0f ns)", 1e9*c.PerCallLo, 1e9*c.PerCallHi),
			at(lo, mid), at(hi, mid)},
	}
	best, ratio := "", 0.0
	for _, in := range inputs {
		if r := in.hi / in.lo; r > ratio {
			best, ratio = in.what, r
		}
	}
	return best, whole
}

// writerWaits is the time a call sleeps, at n threads, for a read-write
// lock taken both ways (Cell.Writers), as Go's RWMutex parks: a writer
// waits for the readers inside to leave, and every reader that comes
// while a writer waits or holds parks until it is done. A parked reader
// is woken by the writer, which runs on, so it waits a sleeping hand-off
// (Handoff) for a core; the writer, woken by the last reader out, is
// taken to run at once. Where the workers are locked to threads, neither
// holds: a woken reader waits for two threads to wake, and a writer that
// writes again first parks on it, a convoy this term leaves out
// (results/scaling/runner/writers). A writer that finds
// another thread reading (each inside for its share of cycle, a call's
// time) parks every other thread, since each comes to read before it is
// done; one that finds none parks those that come to read while it holds.
func (k Constants) writerWaits(c Cell, perInstr, cycle float64, n int) float64 {
	if !(c.Writers > 0) || !(c.WriterReads > 0) || n < 2 || !(cycle > 0) {
		return 0
	}
	read := 0.0 // a thread's time inside a read of the lock, a call
	if c.SharedLocks > 0 {
		read = c.WriterReads * c.SharedLocked / c.SharedLocks * perInstr
	}
	hold := 0.0 // one write's hold
	if c.ExclusiveLocks > 0 {
		hold = c.LockedInstructions / c.ExclusiveLocks * perInstr
	}
	others := float64(n - 1)
	found := 1 - math.Pow(1-math.Min(1, read/cycle), others)
	comes := math.Min(1, hold*c.WriterReads/cycle)
	return c.Writers * k.Handoff * others * (found + (1-found)*comes)
}
