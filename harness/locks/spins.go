package locks

import (
	"sync/atomic"
	"unsafe"
)

// spinKind is the kind of a lock built on a word of sync/atomic's.
const spinKind = "sync/atomic word"

// spins tells the locks built on a word of sync/atomic's (a spin lock: a
// CompareAndSwap takes the word, a Store gives it back), which have no
// method a hook could wrap: in the counting pass every swap that took a
// word counts as an acquisition of it, and a word is a lock where a
// Store of it followed each of its swaps before the next (isSpin). A
// word swapped and never given back (a lock-free list's head, a flag set
// once) is no lock. In the other passes a lock's swap and Store are its
// acquisition and release.
type spins struct {
	t *tracker
	// open are the words swapped and not yet given back, the latest last.
	open [maxOpen]unsafe.Pointer
	n    int
}

// maxOpen is how many words one thread may hold swapped at once and each
// still be told a lock.
const maxOpen = 16

// event is the spin hook: addr was swapped (acquired) or is being given
// back.
func (s *spins) event(addr unsafe.Pointer, acquired bool) {
	if s.t.counting {
		s.count(addr, acquired)
		return
	}
	if s.t.isSpin(addr) {
		if acquired {
			s.t.hook(spinAcquire, addr)
		} else {
			s.t.hook(spinRelease, addr)
		}
	}
}

func (s *spins) count(addr unsafe.Pointer, acquired bool) {
	if acquired {
		s.t.hook(spinAcquire, addr)
		if s.n < maxOpen {
			s.open[s.n] = addr
			s.n++
		}
		return
	}
	for i := s.n - 1; i >= 0; i-- {
		if s.open[i] == addr {
			s.t.given(addr)
			copy(s.open[i:s.n-1], s.open[i+1:s.n])
			s.n--
			return
		}
	}
}

// empty runs n empty critical sections of a spin lock whose word is, for
// as long, a lock the tracker knows, so the hook takes the path it takes
// for a lock the counting pass told. It runs before the counting pass,
// on a tracker that knows no lock yet.
func (s *spins) empty(n int) {
	var word atomic.Bool
	t := s.t
	addr := unsafe.Pointer(&word)
	at := t.slot(addr)
	t.locks = append(t.locks, lockCount{addr: addr, given: 1})
	t.locks[len(t.locks)-1].acquired[spinAcquire/2] = 1
	t.index[at] = int32(len(t.locks))
	for range n {
		for !word.CompareAndSwap(false, true) {
		}
		word.Store(false)
	}
	t.index[at] = 0
	t.locks = t.locks[:len(t.locks)-1]
}

// given counts a Store that gave back a word its thread had swapped.
func (t *tracker) given(lock unsafe.Pointer) {
	if i := t.index[t.slot(lock)]; i != 0 {
		t.locks[i-1].given++
	}
}

// isSpin says whether lock is a word the counting pass told a lock: a
// Store gave back each of its swaps.
func (t *tracker) isSpin(lock unsafe.Pointer) bool { return t.isSpinAt(uintptr(lock)) }

func (t *tracker) isSpinAt(addr uintptr) bool {
	i := t.index[t.slotAt(addr)]
	if i == 0 {
		return false
	}
	l := &t.locks[i-1]
	a := l.acquired[spinAcquire/2]
	// A lock that reports itself on its word's address (ownlock) is
	// that lock, counted once.
	return a > 0 && l.given == a && l.acquired[ownAcquire/2] == 0
}
