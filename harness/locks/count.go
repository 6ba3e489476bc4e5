package locks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// Units are a profile's units, in the order Values gives them, each an
// exact count per operation.
var Units = records.LockUnits

// A Profile is what one operation of a cell does that makes it contend.
type Profile struct {
	// ExclusiveLocks and SharedLocks are acquisitions per operation.
	ExclusiveLocks, SharedLocks float64
	// LockedInstructions are the instructions executed per operation
	// while a lock is held exclusively; SharedLockedInstructions while one
	// is held shared.
	LockedInstructions, SharedLockedInstructions float64
	// Atomics are the atomic read-modify-write instructions per
	// operation, the locks' own included.
	Atomics float64
	// Locks are the locks one at a time, in the order an operation first
	// took them.
	Locks []LockProfile
	// Lines are how the atomics besides the exclusive locks' own spread
	// over cache lines.
	Lines Lines
	// Reads are the reads of lines operations write (sync/atomic's
	// Loads): a blind spot of a profile from before them.
	Reads Reads
	// Writers are the read-write locks taken both ways: a blind spot of
	// the model, named.
	Writers Writers
	// Unseen are the kinds of lock an operation took that the profile
	// cannot see.
	Unseen []Unseen
	// ByCollector are the acquisitions per operation of locks the
	// collector's pace takes (sync.Pool's registry's), left out of the
	// profile: they differ between processes of identical code.
	ByCollector float64
	// Kinds says the profile tells which locks' waiters spin
	// (LockProfile.Spin): a profile read back from a file from before
	// them does not.
	Kinds bool
}

// A LockProfile is one lock's share of a Profile.
type LockProfile struct {
	Kind string
	// Site is the function that first took it; "" for the locks past the
	// most a profile tells apart (Spilled).
	Site                      string
	Exclusive, Shared         float64 // acquisitions per operation
	HeldExclusive, HeldShared float64 // instructions held per operation
	// Spilled are the locks past the most a profile tells apart, each
	// taken as a lock of its own.
	Spilled bool
	// Count, where set, is how many locks of equal weight this one stands
	// for: each acquisition one for the Spilled; the locks besides the
	// busiest for a profile read back from a file.
	Count float64
	// Spin says its waiters spin before they sleep (Go's sync.Mutex and
	// sync.RWMutex) rather than sleep at once (a C library's lock, one of
	// the program's own, as the cost profiles' futex lock): the two hand
	// a lock over at different costs.
	Spin bool
}

// Check refuses a profile no operation can have (predict.CheckLocks).
func (p Profile) Check(name string) error {
	return predict.CheckLocks(name, predict.LockCounts{Exclusive: p.ExclusiveLocks, Shared: p.SharedLocks,
		Held: p.LockedInstructions, SharedHeld: p.SharedLockedInstructions, Atomics: p.Atomics})
}

// Values are the profile's values in the order of Units.
func (p Profile) Values() []float64 {
	return []float64{p.ExclusiveLocks, p.SharedLocks, p.LockedInstructions, p.SharedLockedInstructions, p.Atomics}
}

// Busiest is the lock an operation holds exclusively for the most
// instructions: its exclusive acquisitions and those instructions per
// operation, zero where no lock is taken exclusively.
func (p Profile) Busiest() (acquisitions, held float64) {
	if i := p.busiest(); i >= 0 {
		return p.Locks[i].Exclusive, p.Locks[i].HeldExclusive
	}
	return 0, 0
}

// BusiestSite is the function that first took the busiest lock, "" where
// no lock is taken exclusively.
func (p Profile) BusiestSite() string {
	if i := p.busiest(); i >= 0 {
		return p.Locks[i].Site
	}
	return ""
}

// busiest is the busiest lock's place in Locks, -1 for none.
func (p Profile) busiest() int {
	at := -1
	for i, l := range p.Locks {
		if l.Exclusive > 0 && l.Count == 0 && (at < 0 || l.HeldExclusive > p.Locks[at].HeldExclusive) {
			at = i
		}
	}
	return at
}

// spinning are the kinds of lock whose waiters spin before they sleep.
var spinning = []string{"sync.Mutex", "sync.RWMutex", spinKind}

// BusiestSpins says whether the busiest lock's waiters spin first
// (LockProfile.Spin); false where no lock is taken exclusively.
func (p Profile) BusiestSpins() bool {
	i := p.busiest()
	return i >= 0 && p.Locks[i].Spin
}

// BusiestSpinning is BusiestSpins as the count a file keeps
// (records.BusiestLockSpins): 1, or 0.
func (p Profile) BusiestSpinning() float64 {
	if p.BusiestSpins() {
		return 1
	}
	return 0
}

// OtherSpinning are the exclusive acquisitions per operation of the locks
// besides the busiest whose waiters spin first (LockProfile.Spin).
func (p Profile) OtherSpinning() float64 {
	b, sum := p.busiest(), 0.0
	for i, l := range p.Locks {
		if i != b && l.Spin {
			sum += l.Exclusive
		}
	}
	return sum
}

// OtherLocks is how many locks of equal weight the exclusive locks besides
// the busiest make, by their acquisitions (their sum squared over their
// squares' sum): 63 for a lookup that takes one of 64 stripes of a lock in
// turn, 1 for one other lock, none without another. Each queues on its
// own (package predict).
func (p Profile) OtherLocks() float64 {
	b := p.busiest()
	var sum, squares float64
	for i, l := range p.Locks {
		switch {
		case i == b || !(l.Exclusive > 0):
		case l.Count > 0:
			// Count locks of equal weight.
			sum += l.Exclusive
			squares += l.Exclusive * l.Exclusive / l.Count
		default:
			sum += l.Exclusive
			squares += l.Exclusive * l.Exclusive
		}
	}
	if !(squares > 0) {
		return 0
	}
	return sum * sum / squares
}

// FromValues is the profile whose Values are v (a file's, read back);
// it has no per-lock part.
func FromValues(v []float64) Profile {
	return Profile{ExclusiveLocks: v[0], SharedLocks: v[1], LockedInstructions: v[2], SharedLockedInstructions: v[3], Atomics: v[4]}
}

// Count profiles a cell: it runs argv (a binary built for lock profiles
// whose command runs the cell's operations through Run) under callgrind
// with env added, and reads the Report it prints and callgrind's dumps.
// The process runs on one thread without asynchronous preemption: the
// signal that preemption sends makes callgrind abort now and then.
func Count(ctx context.Context, argv, env []string) (Profile, error) {
	if !callgrind.Requests {
		return Profile{}, fmt.Errorf("lock profiles need callgrind's client requests, which this architecture lacks here")
	}
	dir, err := scratch.Dir("locks-")
	if err != nil {
		return Profile{}, err
	}
	defer scratch.Remove(dir)
	out := filepath.Join(dir, "callgrind.out")
	args := append([]string{"--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--collect-bus=yes",
		"--dump-instr=no", "--dump-line=no", "--compress-strings=no", "--callgrind-out-file=" + out}, argv...)
	var stdout bytes.Buffer
	if err := callgrind.Run(ctx, args, env, &stdout, nil); err != nil {
		return Profile{}, err
	}
	var rep Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Ops < 1 {
		return Profile{}, fmt.Errorf("the profiled process printed no lock report (%v): %.200q", err, stdout.String())
	}
	dumps, err := readDumps(out)
	if err != nil {
		return Profile{}, err
	}
	return rep.profile(dumps)
}

// cost is what one dump collected: in all, and the atomics each function
// executed itself.
type cost struct {
	instructions, atomics float64
	byFunction            map[string]float64
}

// sameKinds says whether the report counts the kinds of lock this
// perfrun reads: a program counted with another version of this package
// (a store's module that requires another perfrun) may count others.
func (rep Report) sameKinds() error {
	ok := len(rep.Calibrations) == len(kinds) && len(rep.PerKind) == len(kinds)
	for _, l := range rep.Locks {
		ok = ok && len(l.PerKind) == len(kinds)
	}
	if !ok {
		return fmt.Errorf("the program counted %d kinds of lock, this perfrun reads %d: it was built with another version of perfrun's lock profiles (harness/locks); count it with a perfrun of the version it requires", len(rep.Calibrations), len(kinds))
	}
	return nil
}

// profile turns the report and the dumps into counts per operation.
func (rep Report) profile(dumps map[string]cost) (Profile, error) {
	get := func(label string) (cost, error) {
		c, ok := dumps[label]
		if !ok {
			return cost{}, fmt.Errorf("callgrind wrote no dump %q", label)
		}
		return c, nil
	}
	if err := rep.sameKinds(); err != nil {
		return Profile{}, err
	}
	// The hook's instructions per held region of each kind of lock.
	overhead := make([]float64, len(kinds))
	n := float64(rep.Ops)
	for i, label := range rep.Calibrations {
		c, err := get(label)
		if err != nil {
			return Profile{}, err
		}
		overhead[i] = c.instructions / calibrations
	}
	// held is what a pass counted under a mode, less the hook's share of
	// the acquisitions it counted under: acquired per kind.
	held := func(label string, shared bool, acquired []int64) (float64, error) {
		c, err := get(label)
		if err != nil {
			return 0, err
		}
		h := c.instructions
		for i, k := range kinds {
			if k.shared == shared {
				h -= overhead[i] * float64(acquired[i])
			}
		}
		return max(0, h) / n, nil
	}
	count, err := get(countLabel)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Atomics: count.atomics / n, Unseen: unseen(count.byFunction, rep.Ops, rep.Sourced), Kinds: true,
		ByCollector: float64(rep.ByCollector) / n}
	for _, l := range rep.Locks {
		p.ExclusiveLocks += float64(l.Exclusive) / n
		p.SharedLocks += float64(l.Shared) / n
		lp := LockProfile{Kind: l.Kind, Site: l.Site, Exclusive: float64(l.Exclusive) / n, Shared: float64(l.Shared) / n, Spilled: l.Spilled,
			Spin: slices.Contains(spinning, l.Kind)}
		if l.Spilled {
			lp.Count = float64(l.Exclusive)
		}
		p.Locks = append(p.Locks, lp)
	}
	p.Lines = spread(max(0, p.Atomics-2*p.ExclusiveLocks), rep.Lines, rep.Ops)
	p.Reads = readsOf(rep.ReadLines, rep.Ops)
	p.Writers = writersOf(p.Locks)
	for _, shared := range []bool{false, true} {
		label, acquired, total := exclusiveLabel, p.ExclusiveLocks, &p.LockedInstructions
		if shared {
			label, acquired, total = sharedLabel, p.SharedLocks, &p.SharedLockedInstructions
		}
		if !(acquired > 0) {
			continue
		}
		if *total, err = held(label, shared, rep.PerKind); err != nil {
			return Profile{}, err
		}
		if err := rep.apportion(&p, shared, *total, held); err != nil {
			return Profile{}, err
		}
	}
	return p, nil
}

// apportion gives each lock of p its instructions held in a mode: its
// unit's (the locks taken at one call, or a source's lock), as the held
// pass of the unit counted them, shared by the unit's locks as their
// acquisitions are; the locks of no unit's pass (one unit alone in the
// mode, or those past the most a profile tells apart) share what the
// mode's pass counted beyond the units', the same way.
func (rep Report) apportion(p *Profile, shared bool, total float64, held func(string, bool, []int64) (float64, error)) error {
	acquisitions := func(l Lock) int64 {
		if shared {
			return l.Shared
		}
		return l.Exclusive
	}
	labelOf := func(l Lock) string {
		if shared {
			return l.SharedLabel
		}
		return l.HeldLabel
	}
	set := func(i int, h float64) {
		if shared {
			p.Locks[i].HeldShared = h
		} else {
			p.Locks[i].HeldExclusive = h
		}
	}
	// Each label's locks: their acquisitions, per kind and in all.
	perKind, all := make(map[string][]int64), make(map[string]int64)
	for _, l := range rep.Locks {
		if acquisitions(l) == 0 {
			continue
		}
		label := labelOf(l)
		if perKind[label] == nil {
			perKind[label] = make([]int64, len(kinds))
		}
		for i, a := range l.PerKind {
			perKind[label][i] += a
		}
		all[label] += acquisitions(l)
	}
	sums := make(map[string]float64)
	left := total
	for label := range all {
		if label == "" {
			continue
		}
		h, err := held(label, shared, perKind[label])
		if err != nil {
			return err
		}
		sums[label], left = h, left-h
	}
	sums[""] = max(0, left)
	for i, l := range rep.Locks {
		if a := acquisitions(l); a > 0 {
			set(i, sums[labelOf(l)]*float64(a)/float64(all[labelOf(l)]))
		}
	}
	return nil
}

// readDumps reads every dump callgrind wrote beside out (out.1, out.2, …
// for the client's dump requests), keyed by the label the request gave.
func readDumps(out string) (map[string]cost, error) {
	files, err := filepath.Glob(out + ".*")
	if err != nil {
		return nil, err
	}
	dumps := make(map[string]cost)
	for _, f := range files {
		label, c, err := readDump(f)
		if err != nil {
			return nil, err
		}
		if label != "" {
			dumps[label] = c
		}
	}
	return dumps, nil
}

// readDump reads one callgrind dump's trigger, its totals of the events
// Ir (instructions) and Ge (atomic instructions), and the Ge of each
// function's own instructions.
func readDump(path string) (label string, c cost, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", c, err
	}
	var events []string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "desc: Trigger: Client Request: "):
			label = strings.TrimPrefix(line, "desc: Trigger: Client Request: ")
		case strings.HasPrefix(line, "events: "):
			events = strings.Fields(strings.TrimPrefix(line, "events: "))
		case strings.HasPrefix(line, "summary: ") || strings.HasPrefix(line, "totals: "):
			for i, v := range strings.Fields(line)[1:] {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || i >= len(events) {
					return "", c, fmt.Errorf("%s: bad totals line %q", path, line)
				}
				switch events[i] {
				case "Ir":
					c.instructions = x
				case "Ge":
					c.atomics = x
				}
			}
		}
	}
	if slices.Contains(events, "Ge") {
		if c.byFunction, err = callgrind.SelfCosts(bytes.NewReader(data), "Ge"); err != nil {
			return "", c, fmt.Errorf("%s: %w", path, err)
		}
	}
	return label, c, nil
}
