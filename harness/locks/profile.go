package locks

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unsafe"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/store/ownlock"
)

// A Source counts locks package sync does not see, such as a C library's,
// as the hook counts sync's: Pass tells it what each pass does (count its
// acquisitions, or switch callgrind's collection on while a lock of a mode
// is held), Locks gives what the counting pass counted, and Empty runs n
// empty critical sections of its kind (shared or not), so what its
// counting adds inside a held region can be measured. A source's lock
// acquired while a sync lock is held (or the reverse) is not supported in
// one pass: each switches collection on its own.
type Source interface {
	Pass(p Pass)
	Locks() []SourceLock
	Empty(shared bool, n int)
}

// A Pass is what a Source does until the next: count acquisitions, or
// collect while Target (or, if 0, any of its locks) is held in the mode
// Shared says; neither when both are false.
type Pass struct {
	Counting, Held, Shared bool
	Target                 uintptr
}

// A SourceLock is one lock a Source counted.
type SourceLock struct {
	Addr              uintptr
	Kind              string
	Exclusive, Shared int64
}

var (
	sourcesMu sync.Mutex
	sources   []Source
)

// Register adds a source of locks to every profile this process takes.
func Register(s Source) {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	sources = append(sources, s)
}

// maxLocks is how many distinct locks a profile tells apart; the
// acquisitions of any more are counted under the last.
const maxLocks = 16

// calibrations is how many empty critical sections measure what the hook
// adds to one held region.
const calibrations = 64

// A kind of lock, by the events that report it.
var kinds = []struct {
	name    string
	acquire int
	shared  bool
}{
	{"sync.Mutex", mutexAcquire, false},
	{"sync.RWMutex", writeAcquire, false},
	{"sync.RWMutex", readAcquire, true},
	{"source", cAcquire, false},
	{"source", cReadAcquire, true},
	{"own", ownAcquire, false},
}

// tracker is the hook: in the counting pass it counts acquisitions per
// lock; in a held pass it switches callgrind's collection on while the
// target lock (or any lock of the pass's mode) is held.
type tracker struct {
	counting bool
	held     bool
	any      bool
	shared   bool
	target   uintptr
	depth    int
	locks    [maxLocks]lockCount
	n        int
	// lines, in the lines pass, is told of every lock event.
	lines *transfers
}

type lockCount struct {
	addr     unsafe.Pointer
	acquired [events / 2]int64
}

func (t *tracker) hook(event int, lock unsafe.Pointer) {
	if t.lines != nil {
		t.lines.lockEvent(event%2 == 0)
	}
	if t.held {
		t.switchCollect(event, lock)
	} else if t.counting && event%2 == 0 {
		t.count(event, lock)
	}
}

// switchCollect is the whole of the hook inside a held region: its cost
// there is the same for every region of a kind, and calibrate measures it.
func (t *tracker) switchCollect(event int, lock unsafe.Pointer) {
	if shared(event) != t.shared || !t.any && uintptr(lock) != t.target {
		return
	}
	if event%2 == 0 {
		t.depth++
		if t.depth == 1 {
			callgrind.ToggleCollect()
		}
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

func (t *tracker) count(event int, lock unsafe.Pointer) {
	i := 0
	for i < t.n && t.locks[i].addr != lock {
		i++
	}
	if i == t.n {
		if t.n == maxLocks {
			i = maxLocks - 1
		} else {
			t.locks[i].addr = lock
			t.n++
		}
	}
	t.locks[i].acquired[event/2]++
}

// Lock is one lock a profile saw, by the order it was first acquired in.
type Lock struct {
	Kind string `json:"kind"`
	// Exclusive and Shared are acquisitions over all the operations.
	Exclusive int64 `json:"exclusive"`
	Shared    int64 `json:"shared"`
	// HeldLabel and SharedLabel name the passes that counted the
	// instructions held under this lock alone, where one ran.
	HeldLabel   string `json:"held,omitempty"`
	SharedLabel string `json:"shared_held,omitempty"`
	// PerKind are its acquisitions by kind and mode, as Report's.
	PerKind []int64 `json:"per_kind"`
}

// Report is what a profiled process prints: the operations, the locks, and
// the passes whose callgrind dumps (named by label) hold the counts.
type Report struct {
	Ops   int    `json:"ops"`
	Locks []Lock `json:"locks"`
	// PerKind is, for each kind of lock and mode, the acquisitions over
	// all operations, in the order of Calibrations.
	PerKind      []int64  `json:"per_kind"`
	Calibrations []string `json:"calibrations"`
	// Lines are the writes of sync/atomic's types over all operations,
	// per cache line, most written first, with those of them that may
	// find the line taken by another thread.
	Lines []LineCount `json:"lines"`
}

// The labels of the passes a profile dumps.
const (
	countLabel        = "count"
	exclusiveLabel    = "held:exclusive"
	sharedLabel       = "held:shared"
	calibrationPrefix = "calibrate:"
)

// Run profiles n operations of op on this thread under callgrind and
// writes the Report as JSON to w: first the empty critical sections that
// measure the hook, then the counting pass (acquisitions and atomics), then
// one pass for the instructions held exclusively, one for those held
// shared, and one per lock where several locks of a mode were seen. Each
// pass runs the same n operations, so a workload that repeats its
// operations must be given whole rotations.
func Run(op func(n int) error, n int, w io.Writer) error {
	if !Instrumented {
		return fmt.Errorf("this binary was not built for lock profiles (-overlay and -tags %s)", Tag)
	}
	if why := unshaped(); why != "" {
		return fmt.Errorf("%s: this Go cannot be profiled", why)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sourcesMu.Lock()
	p := &profiler{t: &tracker{}, srcs: append([]Source(nil), sources...), own: ownlock.Empties()}
	sourcesMu.Unlock()
	install(p.t.hook)
	undo := ownlock.Hook(func(acquired bool, lock unsafe.Pointer) {
		if acquired {
			p.t.hook(ownAcquire, lock)
		} else {
			p.t.hook(ownRelease, lock)
		}
	})
	defer func() { install(nil); undo() }()
	defer p.set(Pass{}, nil)
	callgrind.StartInstrumentation()
	rep := Report{Ops: n}
	for _, k := range kinds {
		rep.Calibrations = append(rep.Calibrations, fmt.Sprintf("%s%d", calibrationPrefix, k.acquire))
	}
	p.calibrate(rep.Calibrations)

	p.set(Pass{Counting: true}, nil)
	written := new(addresses)
	installAtomics(written.write)
	callgrind.ToggleCollect()
	err := batches(op, n, true)
	callgrind.ToggleCollect()
	installAtomics(nil)
	p.set(Pass{}, nil)
	callgrind.DumpStats(countLabel)
	if err != nil {
		return err
	}
	if rep.Lines, err = p.linesPass(op, n, written); err != nil {
		return err
	}
	owners, addrs := p.collect(&rep)
	if err := p.heldPasses(op, n, &rep, owners, addrs); err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(rep)
}

// linesPass runs the n operations once more, one at a time and collecting
// nothing, to count the writes to each line the counting pass saw written
// that may find it taken by another thread (transfers); it returns every
// line's writes and transfers.
func (p *profiler) linesPass(op func(n int) error, n int, written *addresses) ([]LineCount, error) {
	moved := new(transfers)
	p.t.lines = moved
	installAtomics(moved.write)
	err := batches(func(k int) error {
		for range k {
			moved.next()
			if err := op(1); err != nil {
				return err
			}
		}
		return nil
	}, n, false)
	installAtomics(nil)
	p.t.lines = nil
	return lines(written, moved), err
}

// collect adds to rep every lock the counting pass saw, sync's and the
// sources', with the source of each (nil for sync's) and its address.
func (p *profiler) collect(rep *Report) (owners []Source, addrs []uintptr) {
	rep.PerKind = make([]int64, len(kinds))
	add := func(l Lock, owner Source) {
		for i, a := range l.PerKind {
			rep.PerKind[i] += a
		}
		rep.Locks = append(rep.Locks, l)
		owners = append(owners, owner)
	}
	for _, c := range p.t.locks[:p.t.n] {
		l := Lock{PerKind: make([]int64, len(kinds))}
		for ki, k := range kinds {
			l.count(ki, c.acquired[k.acquire/2])
		}
		add(l, nil)
		addrs = append(addrs, uintptr(c.addr))
	}
	for _, s := range p.srcs {
		for _, c := range s.Locks() {
			l := Lock{PerKind: make([]int64, len(kinds))}
			l.count(sourceKind(false), c.Exclusive)
			l.count(sourceKind(true), c.Shared)
			l.Kind = c.Kind
			add(l, s)
			addrs = append(addrs, c.Addr)
		}
	}
	return owners, addrs
}

// heldPasses runs the passes that count the instructions held: one for
// every exclusive lock together and one for every shared one, and one per
// lock where a mode saw several, naming each lock's pass in rep.
func (p *profiler) heldPasses(op func(n int) error, n int, rep *Report, owners []Source, addrs []uintptr) error {
	for _, shared := range []bool{false, true} {
		var held []int
		for i, l := range rep.Locks {
			if !shared && l.Exclusive > 0 || shared && l.Shared > 0 {
				held = append(held, i)
			}
		}
		if len(held) == 0 {
			continue
		}
		label := exclusiveLabel
		if shared {
			label = sharedLabel
		}
		if err := p.held(op, n, label, Pass{Held: true, Shared: shared}, nil); err != nil {
			return err
		}
		if len(held) == 1 {
			continue
		}
		for _, i := range held {
			label := fmt.Sprintf("%s:%d", label, i)
			pass := Pass{Held: true, Shared: shared, Target: addrs[i]}
			if err := p.held(op, n, label, pass, owners[i]); err != nil {
				return err
			}
			if shared {
				rep.Locks[i].SharedLabel = label
			} else {
				rep.Locks[i].HeldLabel = label
			}
		}
	}
	return nil
}

// count records a acquisitions of the kind at index ki.
func (l *Lock) count(ki int, a int64) {
	if a == 0 {
		return
	}
	l.PerKind[ki] += a
	l.Kind = kinds[ki].name
	if kinds[ki].shared {
		l.Shared += a
	} else {
		l.Exclusive += a
	}
}

// sourceKind is the index in kinds of a source's locks of a mode.
func sourceKind(shared bool) int {
	for i, k := range kinds {
		if k.name == "source" && k.shared == shared {
			return i
		}
	}
	panic("no source kind")
}

// batches runs n operations of op in short batches (callgrind.Batches),
// switching collection off across each yield if it is on throughout.
func batches(op func(int) error, n int, collecting bool) error {
	var around func()
	if collecting {
		around = callgrind.ToggleCollect
	}
	return callgrind.Batches(n, op, around)
}

// A profiler is the hook and the sources of one profile.
type profiler struct {
	t    *tracker
	srcs []Source
	own  []func(n int)
}

// set puts sync's hook and the sources into pass p. A held pass whose
// target is one lock goes to that lock's owner alone: only (nil for sync's
// hook).
func (p *profiler) set(pass Pass, only Source) {
	t := p.t
	t.held, t.counting, t.depth = false, pass.Counting, 0
	if pass.Held && (pass.Target == 0 || only == nil) {
		t.held, t.shared, t.target, t.any = true, pass.Shared, pass.Target, pass.Target == 0
	}
	for _, s := range p.srcs {
		if pass.Held && pass.Target != 0 && s != only {
			s.Pass(Pass{})
		} else {
			s.Pass(pass)
		}
	}
}

// held runs n operations in a held pass and dumps the count under label.
func (p *profiler) held(op func(int) error, n int, label string, pass Pass, owner Source) error {
	p.set(pass, owner)
	err := batches(op, n, false)
	p.set(Pass{}, nil)
	callgrind.DumpStats(label)
	return err
}

// calibrate runs empty critical sections of every kind of lock, each kind
// in a pass of its own: what callgrind counts there is the hook's own
// cost inside a held region.
func (p *profiler) calibrate(labels []string) {
	var mu sync.Mutex
	var rw sync.RWMutex
	for i, k := range kinds {
		p.set(Pass{Held: true, Shared: k.shared}, nil)
		switch k.acquire {
		case mutexAcquire:
			for range calibrations {
				mu.Lock()
				mu.Unlock()
			}
		case writeAcquire:
			for range calibrations {
				rw.Lock()
				rw.Unlock()
			}
		case readAcquire:
			for range calibrations {
				rw.RLock()
				rw.RUnlock()
			}
		case ownAcquire:
			for _, empty := range p.own {
				empty(calibrations)
			}
		default:
			for _, s := range p.srcs {
				s.Empty(k.shared, calibrations)
			}
		}
		p.set(Pass{}, nil)
		callgrind.DumpStats(labels[i])
	}
}
