package workloads

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/perfrun/perfrun/store"
)

// costParam says how much of an OpenSSL issuer lookup a model's lookup
// does: own (the store's structure and lock alone), openssl (that plus the
// work every OpenSSL lookup does outside its store, the same for every
// design: the main job's default, set by run) or real (the model at its
// real store's whole profile). It is left out of cell names at own, so
// every name from before it stays as it was.
var costParam = Param{Name: "cost", Default: "own", Check: oneOf("own", "openssl", "real"), Quiet: true,
	Help: "own: the store's structure and lock alone; openssl: plus, per lookup, the work an OpenSSL issuer lookup does outside its store, the same for every design (run's default); real: the model doing its real store's work inside and outside its lock (sorted: OpenSSL 3.0, hashmap: 4.0; see results/fidelity)"}

// CostOwn, CostOpenSSL and CostReal are the cost parameter's values.
const (
	CostOwn     = "own"
	CostOpenSSL = "openssl"
	CostReal    = "real"
)

// sharedRounds is the work an OpenSSL issuer lookup does outside its
// store, whatever the store's design, in rounds of burn on the leaf: OpenSSL
// 4.0.2's profile's outside work (realProfiles["hashmap"]) at the speed of
// perfrun's development machine (results/fidelity/openssl-cost/README.md), as the library
// of OpenSSL PR 28599's tables ran every design. A count, not a time, so it
// is the same instructions on every machine and under callgrind; fixed per
// lookup, it does not follow the corpus (candidates per name, misses).
const sharedRounds = 6

// CostNote says what a cost value adds to a model's lookup and where its
// numbers come from, for the results file; "" for own.
func CostNote(value string) string {
	switch value {
	case CostOpenSSL:
		return fmt.Sprintf("each model lookup also does %d rounds of work on its leaf outside its store, the %v an OpenSSL 4.0.2 issuer lookup spends outside its store on perfrun's development machine, the same for every design, fixed per lookup; a real store adds nothing; -param cost=own measures the stores' structure and lock alone (results/fidelity/openssl-cost/README.md)", sharedRounds, realProfiles["hashmap"].outside)
	case CostReal:
		return "sorted and hashmap do OpenSSL 3.0.19's and 4.0.2's issuer lookups' work inside and outside their locks, as profiled on perfrun's development machine (results/fidelity/costed/README.md)"
	}
	return ""
}

// costProfile is where a real store's issuer lookup spends its time, as
// measured on perfrun's development machine (results/fidelity/costed/README.md,
// "The models at their real stores' cost"): the time spent holding the
// store's lock, the time outside it, and how many times a lookup takes a
// lock that every thread in the process shares (3.0's provider and
// property caches take a read lock each time they are consulted).
type costProfile struct {
	inside, outside time.Duration
	// retry is work held when the lookup takes the store's lock a second
	// time because its first candidate was not the issuer (3.0's loop over
	// the candidates with their issued and time checks): the lookups that
	// do it hold it, the others do not.
	retry time.Duration
	// sharedLocks is how many times a lookup takes the process's shared
	// lock, and sharedHeld the part of the outside work done holding it,
	// spread over those holds; the rest of the outside work holds no lock.
	sharedLocks int
	sharedHeld  time.Duration
	// sleepingStore replaces the model's own lock with one that puts a
	// waiter to sleep at once, as glibc's locks do, where Go's mutex
	// spins and parks through the scheduler (3.0's store lock is a
	// pthread rwlock taken for writing). inside is done under it, beside
	// the model's own search.
	sleepingStore bool
	// sleeping is work done holding other process-wide exclusive locks
	// that sleep at once: a lookup takes sleeping[i] on lock i once per
	// entry of its list, the entries spread through its outside work
	// (3.0: glibc's time-zone lock, which the certificate time checks take
	// converting a time, twice).
	sleeping [][]time.Duration
	// refs has a lookup take and give back a reference to every object it
	// hands out (store.Cost.Refs), as 4.0's lookups and their callers do.
	refs bool
}

// realProfiles are the models' real stores' profiles, measured of the real
// libraries (sorted's of OpenSSL 3.0, hashmap's of 4.0) in perfrun's own
// cell, by lock profile and instruction count: where a lookup's time goes
// inside and outside the store, and which locks it takes how often. sorted
// holds its one sleeping store lock as often as 3.0 does in the same cell
// — once, and again when the first candidate fails, as the model's own
// lookup does. Its first hold is its own search, which holds as many
// instructions as 3.0's search (an all-miss cell); its second does the
// work of 3.0's loop over the candidates (retry), so the held work follows
// how often a corpus's first candidate fails, as 3.0's does. Its outside
// work is 3.0's instructions outside the store lock and the read locks,
// and a tenth or so of it is done under the process's shared lock, taken
// as often as 3.0 takes its read locks. hashmap is 4.0.2's the same way:
// its read lock held for the hash lookup (inside, sized from a cell whose
// first candidates all succeed) and again when the first candidate fails
// (retry), and 4.0's reference counts on the objects a lookup hands out
// (refs). The lock profiles behind these: results/fidelity/lockprofiles/README.md. How
// each figure was measured, and how far the shape reproduces 3.0's
// scaling: results/notes.md, "The real stores' profiles (cost=real)".
var realProfiles = map[string]costProfile{
	"sorted": {retry: 1650 * time.Nanosecond, outside: 1570 * time.Nanosecond,
		sharedLocks: 5, sharedHeld: 150 * time.Nanosecond, sleepingStore: true,
		sleeping: [][]time.Duration{{45 * time.Nanosecond, 45 * time.Nanosecond}}},
	"hashmap": {inside: 140 * time.Nanosecond, retry: 210 * time.Nanosecond, outside: 600 * time.Nanosecond, refs: true},
}

// applyCost gives s the cost the cell asks for. It returns the work the
// workload does after each lookup of a leaf, outside the store (nil for
// none): the shared work at cost=openssl, for every store but a real one.
func applyCost(env Env, s store.Store) (after func(leaf *store.Object), err error) {
	switch env.Params.Get(costParam.Name) {
	case CostOpenSSL:
		if env.Impl.Rule != store.ContractRule {
			return nil, nil // a real store does OpenSSL's work itself
		}
		return func(leaf *store.Object) { burn(leaf, sharedRounds) }, nil
	case CostReal:
		return nil, applyReal(env, s)
	}
	return nil, nil
}

// applyReal gives s its real store's profile.
func applyReal(env Env, s store.Store) error {
	p, ok := realProfiles[env.Impl.Name]
	c, costed := s.(store.Costed)
	if !ok || !costed {
		return fmt.Errorf("%s: %w: cost=real is for the models of real stores (sorted, hashmap)", env.Impl.Name, store.ErrUnsupported)
	}
	ns := nsPerRound()
	inside, outside := rounds(p.inside, ns), rounds(p.outside, ns)
	var lock sync.Locker
	if p.sleepingStore {
		lock = &new(padded[sleepLock]).v
	}
	// before[k] are the sleeping holds done before piece k of the outside
	// work: hold j of a lock's n before piece (2j+1)*pieces/2n, the
	// middle of its share of the pieces.
	pieces := max(p.sharedLocks, 1)
	before := make([][]sleepingHold, pieces)
	spread := func(l *sleepLock, holds []time.Duration) {
		for j, d := range holds {
			k := (2*j + 1) * pieces / (2 * len(holds))
			before[k] = append(before[k], sleepingHold{lock: l, rounds: rounds(d, ns)})
		}
	}
	for i, holds := range p.sleeping {
		spread(&sleepy[i].v, holds)
	}
	retry := rounds(p.retry, ns)
	held := min(rounds(p.sharedHeld, ns), outside)
	free := outside - held
	c.SetCost(store.Cost{
		Lock: lock,
		Refs: p.refs,
		Inside: func(cert *store.Object) {
			if p.inside > 0 {
				burn(cert, inside)
			}
		},
		Retry: func(cert *store.Object) {
			if p.retry > 0 {
				burn(cert, retry)
			}
		},
		Outside: func(cert *store.Object) {
			if p.sharedLocks == 0 {
				holdSleeping(cert, before[0])
				burn(cert, outside)
				return
			}
			// The work in as many pieces as the real store takes shared
			// locks, part of each piece under the process's shared lock,
			// with the sleeping holds spread among the pieces as the real
			// store's lock holds are spread through its lookup.
			for k, holds := range before {
				holdSleeping(cert, holds)
				shared.v.RLock()
				burn(cert, share(held, k, pieces))
				shared.v.RUnlock()
				burn(cert, share(free, k, pieces))
			}
		},
	})
	return nil
}

// share is piece k's part of n rounds split into pieces parts as evenly
// as whole rounds allow.
func share(n, k, pieces int) int { return n*(k+1)/pieces - n*k/pieces }

// sleepingHold is rounds of burn done holding lock.
type sleepingHold struct {
	lock   *sleepLock
	rounds int
}

// holdSleeping does each hold, in order, under its sleeping lock.
func holdSleeping(cert *store.Object, holds []sleepingHold) {
	for _, h := range holds {
		h.lock.Lock()
		burn(cert, h.rounds)
		h.lock.Unlock()
	}
}

// sleepy are the process-wide exclusive locks of a profile's sleeping
// work beside its store's lock.
var sleepy [1]padded[sleepLock]

// shared is the lock every costed lookup in the process takes, as 3.0's
// lookups take its global provider and property locks.
var shared padded[sync.RWMutex]

// burnBytes is how much of a certificate one round of burn hashes.
const burnBytes = 64

// burn does n rounds of the kind of work a lookup does on cert: hash
// (FNV-1a) the first burnBytes of its DER, compare its issuer name with
// its subject, and check its validity period.
func burn(cert *store.Object, n int) {
	var h uint64 = 14695981039346656037
	der := cert.DER[:min(len(cert.DER), burnBytes)]
	for range n {
		for _, b := range der {
			h = (h ^ uint64(b)) * 1099511628211
		}
		if cert.Issuer == cert.Subject || cert.NotAfter.Before(cert.NotBefore) {
			h++
		}
	}
	runtime.KeepAlive(h)
}

// BurnEnv names the variable that gives a process counting a cell under
// valgrind the time a round of burn took natively in the process that
// measured the cell (BurnSetting): timed under valgrind, a round is some
// fifty times slower, and the counted cell would do a fiftieth of the
// work the measured one did.
const BurnEnv = "PERFRUN_BURN_NS"

// BurnSetting is this process's round of burn as BurnEnv's value, for the
// environment of the processes that count its cells.
func BurnSetting() string { return strconv.FormatFloat(nsPerRound(), 'g', -1, 64) }

// nsPerRound is how long one round of burn takes: BurnEnv's value where
// it is set, else timed on this machine once a process.
func nsPerRound() float64 {
	if v, err := strconv.ParseFloat(os.Getenv(BurnEnv), 64); err == nil && v > 0 {
		return v
	}
	return burnNs()
}

// burnNs is a round of burn timed once a process (timeBurn).
func burnNs() float64 {
	burnOnce.Do(func() { burnTimed = timeBurn() })
	return burnTimed
}

var (
	burnOnce  sync.Once
	burnTimed float64
)

// timeBurn times a round of burn: the median of 7 timings of 2000 rounds.
func timeBurn() float64 {
	cert := &store.Object{DER: make([]byte, burnBytes), Issuer: "CN=a", Subject: "CN=b"}
	const n = 2000
	var times []float64
	for range 7 {
		start := time.Now()
		burn(cert, n)
		times = append(times, float64(time.Since(start).Nanoseconds())/n)
	}
	slices.Sort(times)
	return max(times[len(times)/2], 0.1)
}

// rounds is how many rounds of burn take d, at ns a round.
func rounds(d time.Duration, ns float64) int {
	return max(int(float64(d.Nanoseconds())/ns+0.5), 1)
}
