package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// DefaultThreads is the thread count a change is judged at: the count at
// which OpenSSL PR 28599 gave the 3.0 store's and the hash table's time
// per call (docs/compare.md quotes them), a server's core count, and far
// enough past a 2-core runner that a lock which time cannot see there
// decides.
const DefaultThreads = 16

// Reference are the constants every comparison predicts with: a mutex
// hand-off between waiting threads and a cache-line transfer between two
// cores, as a server like the one OpenSSL PR 28599 measured on pays them.
// They are fitted to that PR's tables of the two real stores (3.0's, whose
// exclusive store lock decides it, fixes the hand-off; 4.0's, whose shared
// lines decide it, the transfer): the middle is the pair that keeps both
// stores' predicted per(n)/per(1) nearest their tables from 4 to 18
// threads, Low and High the corners of the pairs that keep both within
// 25%, narrowed until each corner does. The models and the
// third table are held against them, never fitted
// (results/published/predicted/calibrated/README.md; its
// calibration_test.go recomputes the fit). The hand-off is of a
// waiter that sleeps, as the real stores' pthread locks' do. No published
// table of a Go store fits a waiter that spins first (Go's sync.Mutex, a
// sync.RWMutex writer), so its constants come from Go's runtime and the
// fit: it looks at the lock every 30 PAUSE instructions (active_spin_cnt
// in runtime/proc.go), so it takes a released lock half a look later and
// the line comes to it and back (Spin: goLook/2 and two transfers); after
// 4 looks (active_spin) it parks and is woken as a pthread lock's waiter
// is (SpinFor). This 2-core VM's own (results/scaling/README.md) are what
// -constants measure finds.
var Reference = Measured{
	Low:  Constants{Handoff: 950e-9, Spin: goLook/2 + 2*30e-9, SpinFor: 4 * goLook, Transfer: 30e-9},
	Mid:  Constants{Handoff: 1100e-9, Spin: goLook/2 + 2*34e-9, SpinFor: 4 * goLook, Transfer: 34e-9},
	High: Constants{Handoff: 1300e-9, Spin: goLook/2 + 2*42e-9, SpinFor: 4 * goLook, Transfer: 42e-9},
	// Parallel: a server's threads each have a core.
	Parallel: 2,
	Source:   "calibrated on OpenSSL PR 28599's real stores, results/published/predicted/calibrated",
	// A cell whose every 1-thread sample a busy machine set aside is
	// still predicted, from its counts.
	PerInstruction: PerInstruction,
}

// goLook is the time between two looks at a held lock by a Go mutex's
// waiter that spins, on a server: 30 PAUSE instructions at 40 cycles each
// (a PAUSE takes 10 to 140 cycles by the processor), 3 GHz.
const goLook = 30 * 40 / 3e9

// Instruction is the reference time one instruction of a lookup takes,
// lowest, middle and highest: a design's median time per call at one
// thread over its instructions/op. The middle is the median of ab's
// default cells (cost=own); the highest, the designs at cost=openssl,
// whose shared work misses the cache more. results/scaling/instruction.md
// has the runs and the command.
var Instruction = [3]float64{0.079e-9, 0.082e-9, 0.180e-9}

// InstructionOpenSSL is Instruction for a call at cost=openssl: the
// lowest, median and highest of the four designs' time per instruction at
// that cost (results/scaling/instruction.md), whose shared work misses
// the cache more than cost=own's.
var InstructionOpenSSL = [3]float64{0.165e-9, 0.174e-9, 0.180e-9}

// PerInstruction is the reference time per instruction of c's call, by
// its cost: InstructionOpenSSL at cost=openssl, Instruction otherwise.
func PerInstruction(c *records.Cell) [3]float64 {
	if records.NameKey(c.Name, "cost") == "openssl" {
		return InstructionOpenSSL
	}
	return Instruction
}

// Fixed are the constants a comparison predicts with: Reference's
// hand-off and transfer and Instruction's time per instruction, all fixed
// in advance. No time the comparison measures enters, so a prediction is
// a function of the two arms' counts alone: identical code predicts
// exactly 1, and one change the same ratio in every campaign, on a quiet
// runner or a busy one.
var Fixed = func() Measured {
	k := Reference
	k.Low.Instruction, k.Mid.Instruction, k.High.Instruction = Instruction[0], Instruction[1], Instruction[2]
	k.Source += " and the reference time per instruction"
	return k
}()

// A Prediction is a cell of base and of head predicted at each of Threads,
// and what it says at the last of them.
type Prediction struct {
	Name    string
	Threads []int
	// Base and Head are the two arms' bands, in seconds per call.
	Base, Head Band
	// Ratio is head's time per call over base's at the last thread count,
	// the middles'; Lo and Hi the lower and higher of the edges' ratios
	// (both arms at the low constants, both at the high).
	Ratio, Lo, Hi float64
	// Causes are what moved, each with what it alone would do to the
	// ratio, largest first.
	Causes []Cause
	// base and head are the arms' cells, k the middle constants: the
	// terms a reason names come from them (lead). Up to cores threads the
	// counts were predicted again with the runner's own constants, whose
	// middle is kWithin (Within); 0: none was.
	base, head Cell
	k, kWithin Constants
	cores      int
}

// Cells are the two arms' cells the prediction was made of.
func (p Prediction) Cells() (base, head Cell) { return p.base, p.head }

// At is the last thread count, the one the verdict speaks of.
func (p Prediction) At() int { return p.Threads[len(p.Threads)-1] }

// A Cause is one input of the model that differs between base and head.
type Cause struct {
	// What says the change in words: "calls take an exclusive lock, 0 ->
	// 1 per op".
	What string
	// Alone is the ratio at the last thread count were this the only
	// change.
	Alone float64
}

// Unit names the verdict's unit: predicted time per call at n threads.
func Unit(n int) string { return fmt.Sprintf("predicted-sec/call@%dthreads", n) }

// Predict predicts base and head at threads (ascending, the last the one
// judged) with the constants k, whose time per instruction
// (Constants.Instruction) gives both arms their time at one
// thread: head's profile and instructions against base's are all that
// differ (a count that moved less than the counts' gate calls a change
// does not: settle), and no time measured by the comparison enters. It refuses
// constants without a time per instruction and a profile no operation can
// have (Check).
func Change(name string, base, head Cell, threads []int, k Measured) (Prediction, error) {
	if len(threads) == 0 || !slices.IsSorted(threads) || threads[0] < 1 {
		return Prediction{}, fmt.Errorf("%s: want ascending thread counts from 1", name)
	}
	for _, c := range []Constants{k.Low, k.Mid, k.High} {
		if !(c.Instruction > 0) || math.IsInf(c.Instruction, 0) {
			return Prediction{}, fmt.Errorf("%s: the constants give no time per instruction", name)
		}
	}
	head = settle(base, head)
	for side, c := range []Cell{base, head} {
		if err := Check(c); err != nil {
			return Prediction{}, fmt.Errorf("%s's %w", []string{"base", "head"}[side], err)
		}
	}
	p := Prediction{Name: name, Threads: threads, base: base, head: head, k: k.Mid}
	var err error
	if p.Base, err = Predict(base, k.Low, k.Mid, k.High, threads); err != nil {
		return Prediction{}, err
	}
	if p.Head, err = Predict(head, k.Low, k.Mid, k.High, threads); err != nil {
		return Prediction{}, err
	}
	last := len(threads) - 1
	p.Ratio, p.Lo, p.Hi = p.bandAt(last)
	if p.Causes, err = causes(base, head, k.Mid, threads[last], p.Base.Mid[last]); err != nil {
		return Prediction{}, err
	}
	return p, nil
}

// band is head ÷ base at the i-th thread count: the middles' ratio, and
// the lower and higher of the edges' (both arms at the low constants,
// both at the high).
func (p Prediction) bandAt(i int) (ratio, lo, hi float64) {
	ratio = p.Head.Mid[i] / p.Base.Mid[i]
	if p.within(p.Threads[i]) {
		lo, hi = p.heldBand(ratio)
		return ratio, lo, hi
	}
	l, h := p.Head.Low[i]/p.Base.Low[i], p.Head.High[i]/p.Base.High[i]
	return ratio, min(l, h, ratio), max(l, h, ratio)
}

// RatioAt is head ÷ base predicted at n threads with its band; ok is
// false where n is not one of the prediction's thread counts.
func (p Prediction) RatioAt(n int) (ratio, lo, hi float64, ok bool) {
	i := slices.Index(p.Threads, n)
	if i < 0 {
		return 0, 0, 0, false
	}
	ratio, lo, hi = p.bandAt(i)
	return ratio, lo, hi, true
}

// factor is one input of the model that a change can move.
type factor struct {
	set  func(to *Cell, from Cell)
	what func(b, h Cell) string
	same func(b, h Cell) bool
}

// setLocks gives to from's exclusive acquisitions, keeping to's other
// atomics: a lock brings its own two.
func setLocks(to *Cell, from Cell) {
	o := to.SharedAtomics()
	to.ExclusiveLocks, to.BusiestLocks, to.OtherLocks = from.ExclusiveLocks, from.BusiestLocks, from.OtherLocks
	to.BusiestSpins, to.OtherSpinning = from.BusiestSpins, from.OtherSpinning
	to.Atomics = o + 2*to.ExclusiveLocks
}

func setHeld(to *Cell, from Cell) {
	to.LockedInstructions, to.BusiestLocked = from.LockedInstructions, from.BusiestLocked
}

// factors are the model's inputs, weighed one at a time. A lock that one
// side does not take at all is one cause, its acquisitions and what it
// holds together: held instructions without an acquisition mean nothing.
var factors = []factor{
	{
		set: func(to *Cell, from Cell) { setLocks(to, from); setHeld(to, from) },
		same: func(b, h Cell) bool {
			return b.ExclusiveLocks != 0 && h.ExclusiveLocks != 0 || b.ExclusiveLocks == h.ExclusiveLocks
		},
		what: func(b, h Cell) string {
			if b.ExclusiveLocks == 0 {
				return fmt.Sprintf("calls take an exclusive lock, 0 -> %.4g per op, holding it %.4g instructions an acquisition", h.ExclusiveLocks, h.LockedInstructions/h.ExclusiveLocks)
			}
			return fmt.Sprintf("calls take no exclusive lock, %.4g -> 0 per op", b.ExclusiveLocks)
		},
	},
	{
		set: setLocks,
		same: func(b, h Cell) bool {
			return b.ExclusiveLocks == 0 || h.ExclusiveLocks == 0 ||
				b.ExclusiveLocks == h.ExclusiveLocks && b.BusiestLocks == h.BusiestLocks && b.OtherLocks == h.OtherLocks
		},
		what: func(b, h Cell) string {
			if b.ExclusiveLocks == h.ExclusiveLocks {
				return fmt.Sprintf("exclusive locks spread over %.3g -> %.3g locks", 1+b.OtherLocks, 1+h.OtherLocks)
			}
			return "exclusive locks " + change(b.ExclusiveLocks, h.ExclusiveLocks)
		},
	},
	{
		set: setHeld,
		same: func(b, h Cell) bool {
			return b.ExclusiveLocks == 0 || h.ExclusiveLocks == 0 ||
				b.LockedInstructions == h.LockedInstructions && b.BusiestLocked == h.BusiestLocked
		},
		what: func(b, h Cell) string {
			return "instructions under an exclusive lock " + change(b.LockedInstructions, h.LockedInstructions)
		},
	},
	{
		set:  func(to *Cell, from Cell) { to.Atomics = 2*to.ExclusiveLocks + from.SharedAtomics() },
		same: func(b, h Cell) bool { return b.SharedAtomics() == h.SharedAtomics() },
		what: func(b, h Cell) string {
			if b.SharedAtomics() == 0 {
				return fmt.Sprintf("calls write a shared cache line, atomics besides a lock's own 0 -> %.4g per op", h.SharedAtomics())
			}
			return "atomic read-modify-writes besides a lock's own " + change(b.SharedAtomics(), h.SharedAtomics())
		},
	},
	{
		set: func(to *Cell, from Cell) {
			to.HottestLine, to.OtherLines, to.OtherLineTransfers = from.HottestLine, from.OtherLines, from.OtherLineTransfers
		},
		same: func(b, h Cell) bool {
			return b.HottestLine == h.HottestLine && b.OtherLines == h.OtherLines && b.OtherLineTransfers == h.OtherLineTransfers ||
				b.SharedAtomics() == 0 || h.SharedAtomics() == 0
		},
		what: func(b, h Cell) string {
			return fmt.Sprintf("atomics on the hottest line %s, the rest over %.3g -> %.3g other lines",
				change(b.HottestLine, h.HottestLine), b.OtherLines, h.OtherLines)
		},
	},
	{
		set:  func(to *Cell, from Cell) { to.Instructions = from.Instructions },
		same: func(b, h Cell) bool { return b.Instructions == h.Instructions },
		what: func(b, h Cell) string { return "instructions " + change(b.Instructions, h.Instructions) },
	},
}

// change is "a -> b per op (+x%)".
func change(a, b float64) string {
	s := fmt.Sprintf("%.4g -> %.4g per op", a, b)
	if a > 0 {
		s += fmt.Sprintf(" (%+.1f%%)", 100*(b/a-1))
	}
	return s
}

// causes weighs each input head changed by the ratio it alone would give
// at n threads, base's time there being at.
func causes(base, head Cell, k Constants, n int, at float64) ([]Cause, error) {
	var out []Cause
	for _, f := range factors {
		if f.same(base, head) {
			continue
		}
		alone := base
		f.set(&alone, head)
		t, err := Predict(alone, k, k, k, []int{n})
		if err != nil {
			return nil, err
		}
		out = append(out, Cause{What: f.what(base, head), Alone: t.Mid[0] / at})
	}
	slices.SortStableFunc(out, func(a, b Cause) int {
		return -compareAbs(math.Log(a.Alone), math.Log(b.Alone))
	})
	return out, nil
}

func compareAbs(a, b float64) int {
	switch a, b := math.Abs(a), math.Abs(b); {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Verdict gates the ratio at th.MinEffect at the last thread count:
// VerdictAt that count.
func (p Prediction) Verdict(th compare.Thresholds) compare.CellVerdict {
	v, _ := p.VerdictAt(th, p.At())
	return v
}

// VerdictAt gates the ratio at n threads at th.MinEffect: more than that
// slower is a REGRESSION, that much faster an IMPROVED, else PASS. The
// reason gives the change at n with its band, then the causes that made
// it (at the last count, each with what it alone would do). ok is false
// where n is not one of the prediction's counts.
func (p Prediction) VerdictAt(th compare.Thresholds, n int) (compare.CellVerdict, bool) {
	ratio, lo, hi, ok := p.RatioAt(n)
	if !ok {
		return compare.CellVerdict{}, false
	}
	v := compare.CellVerdict{Name: p.Name, Unit: Unit(n), Verdict: compare.Pass, Ratio: ratio, Lo: lo, Hi: hi}
	if p.within(n) {
		return p.heldVerdict(th, n, v), true
	}
	switch {
	case ratio > 1+th.MinEffect:
		v.Verdict = compare.Regression
	case ratio < 1-th.MinEffect:
		v.Verdict = compare.Improved
	}
	v.Reason, v.Cause = p.ReasonAt(n), p.causeAt(n)
	if v.Verdict == compare.Pass && ratio != 1 {
		v.Reason += fmt.Sprintf("; within ±%.0f%%", 100*th.MinEffect)
	}
	return p.blindPass(v), true
}

// blindPass is v undecided where it is a PASS and the prediction is blind
// to something head does otherwise than base (blindSpots): what moved
// there may cost more than the threshold, so a prediction that saw
// nothing else move is no sign that nothing did.
func (p Prediction) blindPass(v compare.CellVerdict) compare.CellVerdict {
	if v.Verdict != compare.Pass || !slices.ContainsFunc(p.blind(), func(b blindSpot) bool { return b.moved }) {
		return v
	}
	v.Verdict = compare.Inconclusive
	v.Reason += "; undecided: the prediction is blind to what moved"
	return v
}

// Reason is the prediction in words at the last thread count: "at 16
// threads +380% a call [+300%, +420%]: calls take an exclusive lock, 0 ->
// 1 per op (alone +350%)".
func (p Prediction) Reason() string { return p.ReasonAt(p.At()) }

// ReasonAt is the prediction in words at n threads, one of its counts;
// the causes' "alone" figures are the last count's, and given there only.
func (p Prediction) ReasonAt(n int) string {
	blind := p.blindSpots()
	if len(p.Causes) == 0 {
		reason := fmt.Sprintf("at %d threads unchanged: the same lock profile and instructions", n)
		if len(blind) > 0 {
			reason = fmt.Sprintf("at %d threads unchanged by what the model weighs: %s", n, strings.Join(blind, "; "))
		}
		return reason
	}
	ratio, lo, hi, _ := p.RatioAt(n)
	head := fmt.Sprintf("at %d threads %s a call [%s, %s]", n, Percent(ratio), Percent(lo), Percent(hi))
	var parts []string
	if l := p.lead(n); l != "" {
		parts = append(parts, l)
	}
	for _, c := range p.Causes {
		if n == p.At() {
			parts = append(parts, fmt.Sprintf("%s (alone %s)", c.What, Percent(c.Alone)))
		} else {
			parts = append(parts, c.What)
		}
	}
	parts = append(parts, blind...)
	reason := head + ": " + strings.Join(parts, "; ")
	if opposed(p.Causes) {
		reason += "; decided by the predicted time, not by any one of them"
	}
	return reason
}

// causeAt is the first cause the reason at n names, in a few words (the
// term that grew, else the first input that moved, to its first comma):
// what an answer line gives after "predicted: ". "" where none moved.
func (p Prediction) causeAt(n int) string {
	if len(p.Causes) == 0 {
		return ""
	}
	first := p.lead(n)
	if first == "" && len(p.Causes) > 0 {
		first = p.Causes[0].What
	}
	if i := strings.IndexAny(first, ",;("); i > 0 {
		first = first[:i]
	}
	return strings.TrimSpace(first)
}

// blindSpots name what the profile counted and the model does not weigh,
// where it matters: atomics in locks the profile cannot see, reads of
// lines other calls write where head reads them otherwise than base
// (results/scaling/runner/placement: charged as transfers, they missed
// more changes kept apart than they mended), and the convoy of a writer
// and the readers it woke where head takes its read-write locks both ways
// otherwise than base (writerWaits weighs the readers' sleep alone).
func (p Prediction) blindSpots() []string {
	var out []string
	for _, b := range p.blind() {
		out = append(out, b.what)
	}
	return out
}

// A blindSpot is one thing blindSpots names, and whether head does it
// otherwise than base.
type blindSpot struct {
	what  string
	moved bool
}

// blind are the blind spots blindSpots names: locks the profile cannot
// see wherever either arm takes them, the rest where they moved.
func (p Prediction) blind() []blindSpot {
	var out []blindSpot
	if u := max(p.base.Unseen, p.head.Unseen); u >= UnseenMatters {
		out = append(out, blindSpot{fmt.Sprintf("blind to locks the profile cannot see, %.3g -> %.3g atomics a call in them (the runtime's, internal/sync's, a C library's)", p.base.Unseen, p.head.Unseen),
			p.base.Unseen != p.head.Unseen})
	}
	if writersMoved(p.base, p.head) {
		out = append(out, blindSpot{"blind to the convoy a writer and the readers it woke make on workers locked to threads: each waits for the other's thread to wake (results/scaling/runner/writers)", true})
	}
	b, h := p.base.Reads*p.base.ReadLineWrites, p.head.Reads*p.head.ReadLineWrites
	if max(p.base.Reads, p.head.Reads) >= UnseenMatters && math.Abs(h-b) >= UnseenMatters*UnseenMatters {
		out = append(out, blindSpot{fmt.Sprintf("blind to reads of lines other calls write, %.3g -> %.3g a call, the lines written %.3g -> %.3g times a call (not in the prediction)",
			p.base.Reads, p.head.Reads, p.base.ReadLineWrites, p.head.ReadLineWrites), true})
	}
	return out
}

// UnseenMatters is how many atomics a call in locks the profile cannot
// see a reason names: fewer are a first call's (an allocation's refill,
// once in thousands of operations), not a lock the call takes.
const UnseenMatters = 0.01

// opposed says whether some causes slow the cell and others speed it,
// each by more than a thousandth: less is rounding, not a trade.
func opposed(cs []Cause) bool {
	up, down := false, false
	for _, c := range cs {
		up, down = up || c.Alone > 1.001, down || c.Alone < 0.999
	}
	return up && down
}

// Percent is a ratio as a signed percentage, as compare writes one.
func Percent(r float64) string { return compare.Percent(r) }

// Threads is 1 to n, the counts a prediction draws.
func Threads(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}
