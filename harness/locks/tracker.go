package locks

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/perfrun/perfrun/harness/callgrind"
)

// maxLocks is how many distinct locks a profile tells apart; the
// acquisitions of any more are counted as spilled, each taken as a lock of
// its own (a store that takes that many spreads its acquisitions).
const maxLocks = 1 << 12

// siteFrames is how many frames of the stack a lock's first acquisition
// keeps: enough to pass the lock's own methods and the hook and reach the
// call that took it.
const siteFrames = 12

// tracker is the hook: in the counting pass it counts acquisitions per
// lock, keeping where each was first taken; in a held pass it switches
// callgrind's collection on while a lock of the pass's mode (any, or one
// of the target group's) is held. Its tables are made before the passes:
// the hook allocates nothing, so it adds no atomic of the allocator's.
type tracker struct {
	counting bool
	held     bool
	any      bool
	shared   bool
	target   int // the group a held pass collects under, unless any
	depth    int
	opener   unsafe.Pointer // the lock whose acquisition opened the held region
	locks    []lockCount
	index    []int32 // by the lock's address: 1 + its place in locks, 0 for none
	groups   []int   // each lock's group (site), set after the counting pass
	// spilled are the acquisitions of locks past maxLocks, per event.
	spilled [events / 2]int64
	// lines, in the lines pass, is told of every lock event.
	lines *transfers
}

type lockCount struct {
	addr     unsafe.Pointer
	acquired [events / 2]int64
	// given are a word's swaps a Store gave back (spins): where they are
	// all its swaps, the word is a lock.
	given int64
	site  [siteFrames]uintptr
	// collector says the lock is one the collector's pace takes
	// (collectorLock), set after the counting pass: no held pass counts
	// under it.
	collector bool
}

func newTracker() *tracker {
	return &tracker{locks: make([]lockCount, 0, maxLocks), index: make([]int32, 2*maxLocks)}
}

func (t *tracker) hook(event int, lock unsafe.Pointer) {
	if t.lines != nil {
		t.lines.lockEvent(event%2 == 0, shared(event), lock)
	}
	if t.held {
		t.switchCollect(event, lock)
	} else if t.counting && event%2 == 0 {
		t.count(event, lock)
	}
}

// switchCollect is the whole of the hook inside a held region: its cost
// there is about the same for every region of a kind, and calibrate
// measures it. A region opens when a lock of the pass is acquired with
// none held and closes when the lock that opened it is released (or, for
// a lock taken inside another of the pass's, when the last is).
func (t *tracker) switchCollect(event int, lock unsafe.Pointer) {
	if shared(event) != t.shared {
		return
	}
	if event%2 == 0 {
		if !t.any && !t.member(lock) || t.byCollector(lock) {
			return
		}
		t.depth++
		if t.depth == 1 {
			t.opener = lock
			callgrind.ToggleCollect()
		}
		return
	}
	// The common release, of the lock that opened the region, makes the
	// same two tests in a pass of any lock and of a group.
	if t.depth == 0 || lock != t.opener && (!t.any && !t.member(lock) || t.byCollector(lock)) {
		return
	}
	t.depth--
	if t.depth == 0 {
		callgrind.ToggleCollect()
	}
}

func shared(event int) bool {
	return event == readAcquire || event == readRelease || event == cReadAcquire || event == cReadRelease
}

// slot is where lock's entry of index is, or the empty one it would take.
func (t *tracker) slot(lock unsafe.Pointer) int { return t.slotAt(uintptr(lock)) }

func (t *tracker) slotAt(addr uintptr) int {
	mask := len(t.index) - 1
	i := int(uint64(addr>>3)*0x9E3779B97F4A7C15>>40) & mask
	for t.index[i] != 0 && uintptr(t.locks[t.index[i]-1].addr) != addr {
		i = (i + 1) & mask
	}
	return i
}

// byCollector says whether lock is one the collector's pace takes
// (lockCount.collector).
func (t *tracker) byCollector(lock unsafe.Pointer) bool {
	i := t.index[t.slot(lock)]
	return i != 0 && t.locks[i-1].collector
}

// member says whether lock is of the target group.
func (t *tracker) member(lock unsafe.Pointer) bool {
	i := t.index[t.slot(lock)]
	return i != 0 && t.groups[i-1] == t.target
}

// count counts an acquisition. A lock's first keeps the stack it was
// taken from, with collection switched off around it: the counting pass's
// atomics are the operations' alone.
func (t *tracker) count(event int, lock unsafe.Pointer) {
	s := t.slot(lock)
	if t.index[s] == 0 {
		if len(t.locks) == maxLocks {
			t.spilled[event/2]++
			return
		}
		t.locks = append(t.locks, lockCount{addr: lock})
		t.index[s] = int32(len(t.locks))
		callgrind.ToggleCollect()
		runtime.Callers(2, t.locks[len(t.locks)-1].site[:])
		callgrind.ToggleCollect()
	}
	t.locks[t.index[s]-1].acquired[event/2]++
}

// machinery are the packages a lock's methods and the hook run in: a
// site is the first frame outside them.
var machinery = []string{"runtime.", "sync.", "sync/atomic.", "internal/sync.", "github.com/perfrun/perfrun/harness/locks.", "github.com/perfrun/perfrun/store/ownlock."}

// site is where a lock was first taken: the function and the call's file
// and line ("" where every frame kept is machinery's), from the stack
// count kept.
func site(pcs []uintptr) (function, at string) {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function != "" && !isMachinery(f.Function) {
			return f.Function, fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if !more {
			return "", ""
		}
	}
}

// collectors are the functions whose locks come and go with the
// garbage collector's pace, not with the operations: sync.Pool's slow
// path takes its registry's lock the first time a Pool is used after a
// collection emptied it. They are taken a few times in one process and
// not at all in the next, in identical code, so a profile leaves them out
// (Profile.ByCollector says how many it left).
var collectors = []string{"sync.(*Pool).pinSlow"}

// collectorLock says whether the stack that first took a lock shows it
// taken by one of collectors: the first frame past the lock's own methods
// and the hook.
func collectorLock(pcs []uintptr) bool {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "github.com/perfrun/perfrun/harness/locks."),
			strings.HasPrefix(f.Function, "sync.(*Mutex)."), strings.HasPrefix(f.Function, "sync.(*RWMutex)."),
			strings.HasPrefix(f.Function, "sync.perfrun"), strings.HasPrefix(f.Function, "internal/sync."):
		default:
			return slices.Contains(collectors, f.Function)
		}
		if !more {
			return false
		}
	}
}

// lineSite says what an address is, from the stack that first wrote it:
// a read or write lock's reader count where sync's RWMutex wrote it, else
// a word, each with the first function outside the machinery: "the reader
// count of a read lock taken in F", "a word written in F".
func lineSite(pcs []uintptr) string {
	what := "a word written in "
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "sync.(*RWMutex).R"):
			what = "the reader count of a read lock taken in "
		case strings.HasPrefix(f.Function, "sync.(*RWMutex)."):
			what = "the reader count of a write lock taken in "
		case f.Function != "" && !isMachinery(f.Function):
			return what + f.Function
		}
		if !more {
			return ""
		}
	}
}

func isMachinery(function string) bool {
	for _, m := range machinery {
		if strings.HasPrefix(function, m) {
			return true
		}
	}
	return false
}

// group sets each lock's group, the call that first took it: locks taken
// at one call (the stripes of one lock, each lookup taking one) are one
// group, held passes collect under a group, and the group's instructions
// held are shared by its locks as their acquisitions are. It returns each
// group's function.
func (t *tracker) group() []string {
	t.groups = make([]int, len(t.locks))
	var names []string
	byCall := make(map[string]int)
	for i := range t.locks {
		t.locks[i].collector = collectorLock(t.locks[i].site[:])
		fn, at := site(t.locks[i].site[:])
		g, ok := byCall[at]
		if !ok {
			g = len(names)
			byCall[at] = g
			names = append(names, fn)
		}
		t.groups[i] = g
	}
	return names
}
