package locks

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestStripesAreLocksOfTheirOwn: a lookup that takes one of 64 Mutex
// stripes in turn, and another Mutex around longer work, profiles as 64
// locks taken at one call, each a 64th of the calls and of work100's
// hold, beside the other lock: the busiest is the other (work300), and the
// rest make 64 locks of equal weight, not one.
func TestStripesAreLocksOfTheirOwn(t *testing.T) {
	bin := handcount(t)
	p, err := Count(context.Background(), []string{bin, "stripes", "640"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ExclusiveLocks != 2 || p.Atomics != 4 || len(p.Locks) != 65 {
		t.Fatalf("%d locks, %g exclusive a call, %g atomics; want 65 locks, 2 a call, 4 atomics", len(p.Locks), p.ExclusiveLocks, p.Atomics)
	}
	if acq, held := p.Busiest(); acq != 1 || held < 302 || held > 306 {
		t.Errorf("busiest lock %g a call holding %g; want work300's lock, 1 a call holding 302 to 306", acq, held)
	}
	if k := p.OtherLocks(); !near(k, 64) {
		t.Errorf("the stripes make %g locks of equal weight, want 64", k)
	}
	for _, l := range p.Locks {
		if l.Exclusive == 1.0/64 && (l.HeldExclusive*64 < 102 || l.HeldExclusive*64 > 108) {
			t.Errorf("a stripe holds %g a call (%g an acquisition), want work100's 102 to 108 an acquisition", l.HeldExclusive, l.HeldExclusive*64)
		}
	}
}

// TestLocksOutsideTheStoreAreSeen: the standard library's lock (log's, for
// a writer that is not io.Discard) and another module's (singleflight's)
// are in the profile, each named by the function that took it.
func TestLocksOutsideTheStoreAreSeen(t *testing.T) {
	bin := handcount(t)
	for _, c := range []struct {
		variant, site string
		locks         float64
	}{
		{"log", "log.(*Logger).output", 1},
		{"module", "golang.org/x/sync/singleflight.(*Group).Do", 2},
	} {
		p, err := Count(context.Background(), []string{bin, c.variant, "512"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		acq, held := p.Busiest()
		if acq != c.locks || !(held > 0) || p.BusiestSite() != c.site {
			t.Errorf("%s: busiest lock %g a call holding %g, taken in %q; want %g a call, held, taken in %s", c.variant, acq, held, p.BusiestSite(), c.locks, c.site)
		}
	}
}

// TestUnseenLocksAreNamed: a channel's send and receive take the runtime's
// lock, which no hook reports: the profile takes no lock, counts its 4
// atomics, and names the kind it cannot see with them; a Mutex names none.
func TestUnseenLocksAreNamed(t *testing.T) {
	bin := handcount(t)
	ch, err := Count(context.Background(), []string{bin, "chan", "512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ch.ExclusiveLocks != 0 || ch.Atomics != 4 || len(ch.Unseen) != 1 || ch.UnseenAtomics() != 4 || !strings.Contains(ch.Unseen[0].What, "runtime") {
		t.Errorf("a channel: %g exclusive locks, %g atomics, unseen %+v; want none, 4, and the runtime's lock with 4", ch.ExclusiveLocks, ch.Atomics, ch.Unseen)
	}
	m, err := Count(context.Background(), []string{bin, "mutex100", "512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Unseen) != 0 {
		t.Errorf("a Mutex: unseen %+v, want none", m.Unseen)
	}
}

// TestOtherLocksWeighs: the locks besides the busiest make as many locks
// of equal weight as their acquisitions say, the locks past the most a
// profile tells apart each one of its own.
func TestOtherLocksWeighs(t *testing.T) {
	lock := func(site string, exclusive, held float64) LockProfile {
		return LockProfile{Site: site, Exclusive: exclusive, HeldExclusive: held}
	}
	for _, c := range []struct {
		what string
		p    Profile
		want float64
	}{
		{"one lock", Profile{Locks: []LockProfile{lock("a", 1, 100)}}, 0},
		{"two", Profile{Locks: []LockProfile{lock("a", 1, 300), lock("b", 2, 200)}}, 1},
		{"three, one taken twice as often", Profile{Locks: []LockProfile{lock("a", 1, 900), lock("b", 2, 1), lock("c", 1, 1)}}, 9.0 / 5},
		{"spilled: 8 acquisitions over 2 operations", Profile{Locks: []LockProfile{lock("a", 1, 900), {Exclusive: 4, Spilled: true, Count: 8}}}, 8},
	} {
		if got := c.p.OtherLocks(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %g other locks, want %g", c.what, got, c.want)
		}
	}
}

// TestKindsThatSpin: Go's sync.Mutex's waiters spin before they sleep, a
// lock of the program's own (as the cost profiles' futex lock, which
// sleeps at once) is taken as one that sleeps: the profile says which,
// for the busiest lock and the others.
func TestKindsThatSpin(t *testing.T) {
	bin := handcount(t)
	for _, c := range []struct {
		variant string
		spins   bool
		others  float64
	}{
		{"mutex100", true, 0},
		{"own100", false, 0},
		{"stripes", true, 1},
	} {
		p, err := Count(context.Background(), []string{bin, c.variant, "640"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.BusiestSpins() != c.spins || !near(p.OtherSpinning(), c.others) {
			t.Errorf("%s: busiest spins %v, others spinning %g a call; want %v and %g", c.variant, p.BusiestSpins(), p.OtherSpinning(), c.spins, c.others)
		}
	}
}

// TestASpinLockOnAWordIsALock: a spin lock built on a word of sync/atomic's
// (a compare-and-swap takes it, a store gives it back), reporting nothing,
// is an exclusive lock whose waiters spin, held around work100, named by
// the function that takes it, its two writes its own and no line's; a
// counter added to by a compare-and-swap, never given back, is a line and
// no lock; a lock of the program's own that reports itself on its word is
// counted once.
func TestASpinLockOnAWordIsALock(t *testing.T) {
	bin := handcount(t)
	spin, err := Count(context.Background(), []string{bin, "spin100", "512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	acq, held := spin.Busiest()
	if spin.ExclusiveLocks != 1 || acq != 1 || !heldNear(held) || !spin.BusiestSpins() || spin.Atomics != 2 {
		t.Errorf("a spin lock: %g exclusive a call, busiest %g holding %g, spins %v, %g atomics; want 1, 1 holding work100's 102 to 106, spinning, 2 atomics",
			spin.ExclusiveLocks, acq, held, spin.BusiestSpins(), spin.Atomics)
	}
	if site := spin.BusiestSite(); site != "main.(*spinLock).Lock" {
		t.Errorf("the spin lock is named %q, want main.(*spinLock).Lock", site)
	}
	if spin.Lines.Hottest != 0 {
		t.Errorf("the spin lock's word is counted a line with %g transfers a call, want it the lock's own", spin.Lines.Hottest)
	}
	add, err := Count(context.Background(), []string{bin, "casadd", "512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if add.ExclusiveLocks != 0 || len(add.Locks) != 0 || add.Atomics != 1 || add.Lines.Hottest != 1 {
		t.Errorf("a counter added to by a compare-and-swap: %g exclusive a call, locks %+v, %g atomics, hottest line %g; want no lock and one line written once",
			add.ExclusiveLocks, add.Locks, add.Atomics, add.Lines.Hottest)
	}
	own, err := Count(context.Background(), []string{bin, "own100", "512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if own.ExclusiveLocks != 1 || len(own.Locks) != 1 {
		t.Errorf("a lock that reports itself: %g exclusive a call in %d locks, want 1 in 1", own.ExclusiveLocks, len(own.Locks))
	}
}

// TestARareLockIsSeenAndTheCollectorsAreNot: a Mutex taken on one
// operation in 250 is 0.004 acquisitions a call, held work100's
// instructions each; the lock sync.Pool's slow path takes after each
// collection comes with the collector, not the operations, and is left
// out of the profile, counted apart.
func TestARareLockIsSeenAndTheCollectorsAreNot(t *testing.T) {
	bin := handcount(t)
	rare, err := Count(context.Background(), []string{bin, "rare250", "500"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !near(rare.ExclusiveLocks, 1.0/250) || !heldNear(250*rare.LockedInstructions) {
		t.Errorf("a lock on one operation in 250: %g a call holding %g; want 0.004 holding work100's 102 to 106 each", rare.ExclusiveLocks, 250*rare.LockedInstructions)
	}
	pool, err := Count(context.Background(), []string{bin, "pool", "320"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pool.ExclusiveLocks != 0 || pool.LockedInstructions != 0 || !(pool.ByCollector > 0) {
		t.Errorf("a sync.Pool with a collection every 64 operations: %g exclusive locks a call holding %g, %g left to the collector; want none, none, some",
			pool.ExclusiveLocks, pool.LockedInstructions, pool.ByCollector)
	}
}
