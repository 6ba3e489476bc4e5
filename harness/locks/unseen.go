package locks

import (
	"strings"
)

// An Unseen is a kind of lock the profile cannot see, and the atomics per
// operation the functions that take it executed: a lock's acquisitions and
// the instructions held under it are not in the profile, its atomics
// are (Atomics). A profile names every kind it saw taken, never a silent
// zero.
type Unseen struct {
	What    string
	Atomics float64
}

// blind are the kinds of lock no hook reports, each by the functions
// whose own atomics are its: the runtime's (a channel's, a timer's, a
// semaphore's, the allocator's), internal/sync's (sync.Map's, unique's)
// and a C library's (where no Source reports them).
var blind = []struct {
	what   string
	match  func(fn string) bool
	source bool // seen where a Source reports C locks
}{
	{"the Go runtime's locks (a channel's, a timer's, the allocator's)", func(fn string) bool {
		return fn == "runtime.lock2" || strings.HasPrefix(fn, "runtime.unlock2")
	}, false},
	{"internal/sync's locks (sync.Map's, unique's)", func(fn string) bool { return strings.HasPrefix(fn, "internal/sync.") }, false},
	{"a C library's locks (pthread)", func(fn string) bool {
		for _, c := range []string{"pthread_mutex_", "pthread_rwlock_", "pthread_spin_", "lll_lock", "lll_unlock"} {
			if strings.Contains(fn, c) {
				return true
			}
		}
		return false
	}, true},
}

// unseen are the kinds of lock the counting pass's functions took that no
// hook reports, from the atomics each function executed itself over ops
// operations; sourced says a Source reported C locks.
func unseen(atomics map[string]float64, ops int, sourced bool) []Unseen {
	var out []Unseen
	for _, b := range blind {
		if b.source && sourced {
			continue
		}
		sum := 0.0
		for fn, a := range atomics {
			if b.match(fn) {
				sum += a
			}
		}
		if sum > 0 {
			out = append(out, Unseen{What: b.what, Atomics: sum / float64(ops)})
		}
	}
	return out
}

// UnseenAtomics are the atomics per operation in locks the profile cannot
// see (Unseen), all kinds together.
func (p Profile) UnseenAtomics() float64 {
	sum := 0.0
	for _, u := range p.Unseen {
		sum += u.Atomics
	}
	return sum
}
