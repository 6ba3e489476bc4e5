package locks

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
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

// calibrations is how many empty critical sections measure what the hook
// adds to one held region.
const calibrations = 64

// emptyMutex, emptyWrite and emptyRead run n empty critical sections of
// sync's kinds of lock, each in a function of its own, so what the
// compiler makes of the loop does not change with the code around it.
//
//go:noinline
func emptyMutex(n int) {
	var mu sync.Mutex
	for range n {
		mu.Lock()
		mu.Unlock()
	}
}

//go:noinline
func emptyWrite(n int) {
	var rw sync.RWMutex
	for range n {
		rw.Lock()
		rw.Unlock()
	}
}

//go:noinline
func emptyRead(n int) {
	var rw sync.RWMutex
	for range n {
		rw.RLock()
		rw.RUnlock()
	}
}

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
	{spinKind, spinAcquire, false},
}

// Lock is one lock a profile saw, by the order it was first acquired in.
type Lock struct {
	Kind string `json:"kind"`
	// Exclusive and Shared are acquisitions over all the operations.
	Exclusive int64 `json:"exclusive"`
	Shared    int64 `json:"shared"`
	// Site is the function that first took it (a source's lock: the
	// source's kind).
	Site string `json:"site,omitempty"`
	// HeldLabel and SharedLabel name the passes that counted the
	// instructions held under its group alone (the locks taken at one
	// call; a source's lock alone), where one ran.
	HeldLabel   string `json:"held,omitempty"`
	SharedLabel string `json:"shared_held,omitempty"`
	// Spilled marks the locks past the most a profile tells apart, their
	// acquisitions together, each taken as a lock of its own.
	Spilled bool `json:"spilled,omitempty"`
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
	// Sourced says a Source reported C locks: a C library's lock
	// functions are then seen, not blind (Unseen).
	Sourced bool `json:"sourced,omitempty"`
	// ByCollector are the acquisitions, over all operations, of the
	// locks the collector's pace takes (collectors), left out of Locks.
	ByCollector int64 `json:"by_collector,omitempty"`
	// Lines are the writes of sync/atomic's types over all operations,
	// per cache line, most written first, with those of them that may
	// find the line taken by another thread.
	Lines []LineCount `json:"lines"`
	// ReadLines are the lines operations both read through sync/atomic's
	// Loads and write, with their reads and writes (ReadLine).
	ReadLines []ReadLine `json:"read_lines,omitempty"`
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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sourcesMu.Lock()
	p := &profiler{t: newTracker(), srcs: append([]Source(nil), sources...), own: ownlock.Empties()}
	sourcesMu.Unlock()
	p.spins = &spins{t: p.t}
	install(p.t.hook)
	installSpins(p.spins.event)
	defer installSpins(nil)
	undo := ownlock.Hook(func(acquired bool, lock unsafe.Pointer) {
		if acquired {
			p.t.hook(ownAcquire, lock)
		} else {
			p.t.hook(ownRelease, lock)
		}
	})
	defer func() { install(nil); undo() }()
	defer p.set(Pass{}, every)
	callgrind.StartInstrumentation()
	rep := Report{Ops: n, Sourced: len(p.srcs) > 0}
	for _, k := range kinds {
		rep.Calibrations = append(rep.Calibrations, fmt.Sprintf("%s%d", calibrationPrefix, k.acquire))
	}
	p.calibrate(rep.Calibrations)

	// The counting pass's table is made, and the collection its size
	// brings on is run, before the pass: a collection in it would add the
	// runtime's atomics to the operations'.
	written := sitedAddresses()
	runtime.GC()
	p.set(Pass{Counting: true}, every)
	installAtomics(written.write)
	callgrind.ToggleCollect()
	err := batches(op, n, true)
	callgrind.ToggleCollect()
	installAtomics(nil)
	p.set(Pass{}, every)
	callgrind.DumpStats(countLabel)
	if err != nil {
		return err
	}
	written.drop(p.t.isSpinAt)
	if rep.Lines, rep.ReadLines, err = p.linesPass(op, n, written); err != nil {
		return err
	}
	units := p.collect(&rep)
	if err := p.heldPasses(op, n, &rep, units); err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(rep)
}

// linesPass runs the n operations once more, one at a time and collecting
// nothing, to count the writes to each line the counting pass saw written
// that may find it taken by another thread (transfers), and the reads of
// lines the operations write; it returns every line's writes and
// transfers, and the lines both read and written.
func (p *profiler) linesPass(op func(n int) error, n int, written *addresses) ([]LineCount, []ReadLine, error) {
	moved := new(transfers)
	p.t.lines = moved
	installAtomics(func(addr unsafe.Pointer) {
		if !p.t.isSpin(addr) { // a spin lock's word is its lock's, not a line's
			moved.write(addr)
		}
	})
	installReads(moved.read)
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
	installReads(nil)
	p.t.lines = nil
	return lines(written, moved), readLines(moved), err
}

// A unit is what one held pass collects under: a group of sync's locks
// (those taken at one call), or one lock of a source.
type unit struct {
	group  int    // the tracker's group; -1 for a source's lock
	source Source // the source, for a source's lock
	addr   uintptr
}

// collect adds to rep every lock the counting pass saw, sync's (with the
// function that first took it) and the sources', and the acquisitions of
// the locks past the most it tells apart; it returns each lock's unit.
func (p *profiler) collect(rep *Report) []unit {
	rep.PerKind = make([]int64, len(kinds))
	var units []unit
	add := func(l Lock, u unit) {
		for i, a := range l.PerKind {
			rep.PerKind[i] += a
		}
		rep.Locks = append(rep.Locks, l)
		units = append(units, u)
	}
	sites := p.t.group()
	for i, c := range p.t.locks {
		if c.collector {
			for _, a := range c.acquired {
				rep.ByCollector += a
			}
			continue
		}
		l := Lock{PerKind: make([]int64, len(kinds)), Site: sites[p.t.groups[i]]}
		for ki, k := range kinds {
			if k.acquire != spinAcquire || p.t.isSpin(c.addr) {
				l.count(ki, c.acquired[k.acquire/2])
			}
		}
		if l.Exclusive+l.Shared > 0 {
			add(l, unit{group: p.t.groups[i]})
		}
	}
	// A word swapped past the most a profile tells apart is not known
	// to be given back: no lock.
	spilled := Lock{PerKind: make([]int64, len(kinds)), Spilled: true}
	for ki, k := range kinds {
		if k.acquire != spinAcquire {
			spilled.count(ki, p.t.spilled[k.acquire/2])
		}
	}
	if spilled.Exclusive+spilled.Shared > 0 {
		add(spilled, unit{group: -2})
	}
	for _, s := range p.srcs {
		for _, c := range s.Locks() {
			l := Lock{PerKind: make([]int64, len(kinds)), Site: c.Kind}
			l.count(sourceKind(false), c.Exclusive)
			l.count(sourceKind(true), c.Shared)
			l.Kind = c.Kind
			add(l, unit{group: -1, source: s, addr: c.Addr})
		}
	}
	return units
}

// heldPasses runs the passes that count the instructions held: one for
// every exclusive lock together and one for every shared one, and, where
// a mode's locks are of several units (calls that took them, or a
// source's locks), one per unit, naming each lock's unit's pass in rep.
// The locks past the most a profile tells apart have no pass of their
// own: theirs is what the mode's pass counted beyond the units'.
func (p *profiler) heldPasses(op func(n int) error, n int, rep *Report, units []unit) error {
	for _, shared := range []bool{false, true} {
		var in []unit
		spilled := false
		for i, l := range rep.Locks {
			switch {
			case !shared && l.Exclusive == 0 || shared && l.Shared == 0:
			case l.Spilled:
				spilled = true
			case !slices.Contains(in, units[i]):
				in = append(in, units[i])
			}
		}
		if len(in) == 0 && !spilled {
			continue
		}
		label := exclusiveLabel
		if shared {
			label = sharedLabel
		}
		if err := p.held(op, n, label, Pass{Held: true, Shared: shared}, every); err != nil {
			return err
		}
		if len(in) == 1 && !spilled {
			continue
		}
		for j, u := range in {
			label := fmt.Sprintf("%s:%d", label, j)
			pass := Pass{Held: true, Shared: shared, Target: u.addr}
			if err := p.held(op, n, label, pass, u); err != nil {
				return err
			}
			for i := range rep.Locks {
				switch {
				case units[i] != u:
				case shared:
					rep.Locks[i].SharedLabel = label
				default:
					rep.Locks[i].HeldLabel = label
				}
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
	t     *tracker
	srcs  []Source
	own   []func(n int)
	spins *spins
}

// set puts sync's hook and the sources into pass p. A held pass of one
// unit goes to it alone: to sync's hook for a group of its locks, to the
// source that owns a lock for that lock. A unit of group -1 and no source
// is every lock of the pass's mode.
func (p *profiler) set(pass Pass, u unit) {
	t := p.t
	t.held, t.counting, t.depth = false, pass.Counting, 0
	one := pass.Held && (u.group >= 0 || u.source != nil)
	if pass.Held && u.source == nil {
		t.held, t.shared, t.any, t.target = true, pass.Shared, u.group < 0, u.group
	}
	for _, s := range p.srcs {
		if one && s != u.source {
			s.Pass(Pass{})
		} else {
			s.Pass(pass)
		}
	}
}

// held runs n operations in a held pass of u and dumps the count under
// label.
func (p *profiler) held(op func(int) error, n int, label string, pass Pass, u unit) error {
	p.set(pass, u)
	err := batches(op, n, false)
	p.set(Pass{}, every)
	callgrind.DumpStats(label)
	return err
}

// every is the unit of every lock of a pass's mode, and of a pass that
// holds none.
var every = unit{group: -1}

// calibrate runs empty critical sections of every kind of lock, each kind
// in a pass of its own: what callgrind counts there is the hook's own
// cost inside a held region.
func (p *profiler) calibrate(labels []string) {
	for i, k := range kinds {
		p.set(Pass{Held: true, Shared: k.shared}, every)
		switch k.acquire {
		case mutexAcquire:
			emptyMutex(calibrations)
		case writeAcquire:
			emptyWrite(calibrations)
		case readAcquire:
			emptyRead(calibrations)
		case ownAcquire:
			for _, empty := range p.own {
				empty(calibrations)
			}
		case spinAcquire:
			p.spins.empty(calibrations)
		default:
			for _, s := range p.srcs {
				s.Empty(k.shared, calibrations)
			}
		}
		p.set(Pass{}, every)
		callgrind.DumpStats(labels[i])
	}
}
