package predict

import (
	"fmt"
	"slices"

	"github.com/perfrun/perfrun/compare"
)

// Runner are the constants a prediction uses within the runner's cores
// (1 and 2 threads on this project's 2-core runner): the runner's own,
// from perfrun predict -constants measure (results/scaling/runner says how
// they were measured), each kind of hand-off apart, and the reference time
// per instruction, also the runner's. The transfer is half the turn of the
// two threads that wrote a line in turn there (Constants.Transfer). A
// waiter that spins looks at the lock every 2 × (Spin − 2 turns), 4 times
// before it parks (SpinFor).
var Runner = Measured{
	Low:        Constants{Handoff: 42.2e-6, Spin: 219e-9, SpinFor: runnerSpinFor, Transfer: 56e-9 / 2},
	Mid:        Constants{Handoff: 51.2e-6, Spin: 344e-9, SpinFor: runnerSpinFor, Transfer: 73e-9 / 2},
	High:       Constants{Handoff: 76.6e-6, Spin: 450e-9, SpinFor: runnerSpinFor, Transfer: 102e-9 / 2},
	Parallel:   2,
	MeasuredOn: 2,
	CPU:        "Intel(R) Xeon(R) Processor",
	Source:     "measured alone on this project's 2-core runner, results/scaling/runner",
	// A cell whose every sample a busy runner set aside is still
	// predicted, from its counts.
	PerInstruction: PerInstruction,
}

// runnerSpinFor is 4 looks of a spinning waiter at Runner's middle.
const runnerSpinFor = 4 * 2 * (344e-9 - 2*73e-9)

// RunnerFixed is Runner with Instruction's time per instruction, as Fixed
// is Reference with it: a prediction within the cores from the counts
// alone.
var RunnerFixed = func() Measured {
	k := Runner
	k.Low.Instruction, k.Mid.Instruction, k.High.Instruction = Instruction[0], Instruction[1], Instruction[2]
	k.Source += " and the reference time per instruction"
	return k
}()

// RunnerHeld is how far, either way, the prediction within the cores has
// missed what the runner measured: the largest of head ÷ base predicted
// over head ÷ base measured at 2 threads, over every change held on this
// runner alone, on each host it ran on, the sets kept apart included
// (results/scaling/runner/held, amd and placement), but those whose
// readers parked for a writer moved (WriterHeld holds them). Within the
// cores a prediction decides a count time could not measure only by more
// than this: it is its band there.
const RunnerHeld = 2.7

// Within predicts the prediction's counts up to cores again with k (the
// runner's own constants, RunnerFixed) in place of those it was made with:
// within the cores the runner measures, and its prediction there is held
// to what it measured. Its band there is RunnerHeld either way of the
// middle, not the constants' spread.
//
// A file's cores never stretch k past the machine it was measured on
// (k.MeasuredOn): past those, the reference constants stay.
func (p *Prediction) Within(cores int, k Measured) error {
	cores = k.upTo(cores)
	var counts []int
	for _, n := range p.Threads {
		if n <= cores {
			counts = append(counts, n)
		}
	}
	if len(counts) == 0 || !p.base.KnowsItsLocks() || !p.head.KnowsItsLocks() {
		// A profile from before the kinds of lock stays with the
		// reference: the runner's sleeping hand-off would read every lock
		// of it as one whose waiters sleep.
		return nil
	}
	for _, arm := range []struct {
		c    Cell
		band *Band
	}{{p.base, &p.Base}, {p.head, &p.Head}} {
		b, err := Predict(arm.c, k.Low, k.Mid, k.High, counts)
		if err != nil {
			return err
		}
		for j, n := range counts {
			i := slices.Index(p.Threads, n)
			arm.band.Low[i], arm.band.Mid[i], arm.band.High[i] = b.Low[j], b.Mid[j], b.High[j]
		}
	}
	p.cores, p.kWithin = cores, k.Mid
	return nil
}

// within says whether n is a count the prediction made within the cores.
func (p Prediction) within(n int) bool { return n <= p.cores }

// constantsAt are the middle constants of the prediction at n threads.
func (p Prediction) constantsAt(n int) Constants {
	if p.within(n) {
		return p.kWithin
	}
	return p.k
}

// heldVerdict is VerdictAt for a count within the cores: a REGRESSION or
// an IMPROVED only where the change passes the threshold by more than
// the prediction has missed the runner's measurements (held), else
// undecided.
func (p Prediction) heldVerdict(th compare.Thresholds, n int, v compare.CellVerdict) compare.CellVerdict {
	switch {
	case v.Lo > 1+th.MinEffect:
		v.Verdict = compare.Regression
	case v.Hi < 1-th.MinEffect:
		v.Verdict = compare.Improved
	case v.Ratio == 1:
		v.Verdict = compare.Pass
	default:
		v.Verdict = compare.Inconclusive
	}
	v.Reason = fmt.Sprintf("at %d threads %s a call predicted with this runner's constants, held to %.1f× either way of what it measured [%s, %s] (results/scaling/runner)",
		n, Percent(v.Ratio), p.held(), Percent(v.Lo), Percent(v.Hi))
	if v.Verdict == compare.Inconclusive {
		v.Reason += fmt.Sprintf(": undecided, the band spans the %.0f%% threshold", 100*th.MinEffect)
	}
	if l := p.lead(n); l != "" {
		v.Reason += "; " + l
	}
	return p.blindPass(v)
}

// WriterHeld is RunnerHeld for a change whose readers parked for a
// writer moved (Cell.Writers): how far, either way, the prediction has
// missed such changes on this runner. How long a parked reader sleeps
// there follows the scheduler's and the host's wake-ups, not one
// hand-off, and on the harness's locked workers a writer can park on the
// reader it woke (results/scaling/runner/placement and writers), so such
// a change is held to its own kind, and the others are not widened by it.
const WriterHeld = 5.1

// held is how far either way a ratio p predicts within the cores is held:
// WriterHeld where the writers of a read-write lock taken both ways
// moved, else RunnerHeld.
func (p Prediction) held() float64 {
	if writersMoved(p.base, p.head) {
		return WriterHeld
	}
	return RunnerHeld
}

// writersMoved says whether head takes its read-write locks both ways
// otherwise than base.
func writersMoved(base, head Cell) bool {
	return base.Writers != head.Writers || base.WriterReads != head.WriterReads
}

// heldBand is the band of a ratio predicted within the cores.
func (p Prediction) heldBand(ratio float64) (lo, hi float64) {
	return ratio / p.held(), ratio * p.held()
}

// Own makes constants Measure found on one machine the constants a
// prediction uses within that machine's cores, as Runner is this
// project's runner's: a waiter that spins for four spinning hand-offs at
// the middle's before it parks (not Runner's look pace, which a machine
// whose transfer is near half its hand-off makes next to nothing), the
// reference time per instruction (RunnerFixed's), held to cores threads,
// and named by source.
func Own(m Measured, cpu string, cores int, source string) Measured {
	spinFor := 4 * m.Mid.Spin
	own := func(c, fixed Constants) Constants {
		return Constants{Handoff: c.Handoff, Spin: c.Spin, SpinFor: spinFor, Transfer: c.Transfer, Instruction: fixed.Instruction}
	}
	k := RunnerFixed
	k.Low, k.Mid, k.High = own(m.Low, k.Low), own(m.Mid, k.Mid), own(m.High, k.High)
	k.MeasuredOn, k.CPU, k.Source = cores, cpu, source
	return k
}
