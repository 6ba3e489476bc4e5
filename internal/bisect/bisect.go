// Package bisect narrows a step between two commits to the commit that
// made it, with paired A/B measurements: each probe measures a commit of
// the range against a reference commit (ab's arms and verdicts), never
// one commit after another, so a slow minute of the machine cannot look
// like a step. A probe that stays undecided ends the search with the
// range it narrowed to, never a guess; a commit that does not build is
// skipped and named; a step made of several smaller ones is followed
// commit by commit, each with its share.
//
// Its place: command plumbing below the command line, which gives it a
// Measure function that runs ab; it knows nothing of git or processes.
// A Follower chooses the cell to follow and judges each probe from ab's
// report; a Result says what was found as text (Summary, Markdown) and as
// data (Record).
package bisect

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Outcome is what one measurement of a commit against a reference says
// of the cell followed.
type Outcome int

const (
	// Same: the commit is no further from the reference than the
	// threshold (a PASS of the cell).
	Same Outcome = iota
	// Moved: the commit moved the cell past the threshold, the step's way.
	Moved
	// Undecided: neither could be shown.
	Undecided
	// Against: the commit moved the cell past the threshold the other way.
	Against
)

func (o Outcome) String() string {
	return [...]string{"same", "moved", "undecided", "moved the other way"}[o]
}

// Measurement is one A/B comparison of Head against Base.
type Measurement struct {
	Base, Head string
	Outcome    Outcome
	// Shift is head/base − 1 of the cell's time with its interval;
	// Instructions head/base − 1 of its instruction count (NaN where not
	// counted).
	Shift, Low, High float64
	Instructions     float64
	NoCount          string // why the instructions were not counted, where they were not
	Verdict          string // ab's verdict of the cell, with its reason
	Wall             time.Duration
}

// Measure compares head against base; threshold is the relative size
// a move must exceed, signed the step's way.
type Measure func(ctx context.Context, base, head string, threshold float64) (Measurement, error)

// ErrDoesNotBuild is wrapped by a Measure error for a head commit that
// does not build: the search skips it, as git bisect skip does.
var ErrDoesNotBuild = errors.New("does not build")

// Search is one bisection.
type Search struct {
	// Commits are the range's commits oldest first, the bad one last;
	// Good is the commit before the first.
	Good    string
	Commits []string
	Measure Measure
	// Threshold is the least step the whole range must show (either
	// way); ProbeFloor the least threshold a probe is judged at. A probe
	// is judged at a quarter of the step, so a commit that made a part of
	// it (two commits each adding half) moves too.
	Threshold, ProbeFloor float64
	// Deadline, when not zero, is when no measurement may start.
	Deadline time.Time
	// Progress hears of every measurement as it starts and ends.
	Progress func(ev Event)

	about int // the measurements the search expects, as it goes
}

// Event is progress: a measurement about to start (Done false) or done.
type Event struct {
	Probe, About int // this probe, and about how many the search takes
	Measurement  Measurement
	Done         bool
}

// Culprit is a commit that made (part of) the step.
type Culprit struct {
	Commit, Before string
	// Shift is its own shift in time, Instructions in the count (NaN
	// where not counted), each against the culprit before it (or Good).
	Shift, Instructions float64
	// Share is its part of what the culprits made together: by the count
	// where every culprit has one (exact), else by time.
	Share float64
}

// Result is what a search found.
type Result struct {
	// Step is the whole step: Bad against Good.
	Step     Measurement
	Found    bool
	Culprits []Culprit
	// NoStep says Good and Bad do not differ by the threshold: there is
	// nothing to find.
	NoStep bool
	// Range, when the search stopped undecided, is the commits (after
	// From, up to To) the step lies in.
	From, To string
	Why      string
	Skipped  map[string]string // commits that do not build, and why
	Probes   []Measurement
}

// ErrBudget is returned when the deadline leaves no room to measure.
var ErrBudget = errors.New("budget spent")

// Run bisects. An error is a failure to measure (a tool's failure, an
// interrupt); a step it cannot narrow to one commit is a Result with
// Found false.
func (s *Search) Run(ctx context.Context) (*Result, error) {
	r := &Result{Skipped: map[string]string{}}
	bad := s.Commits[len(s.Commits)-1]
	s.about = 1 + log2(len(s.Commits))
	step, err := s.decided(ctx, r, s.Good, bad, s.Threshold)
	if errors.Is(err, ErrDoesNotBuild) {
		return r, fmt.Errorf("the bad commit %s: %w", short(bad), err)
	}
	if err != nil {
		return r, err
	}
	r.Step = step
	switch step.Outcome {
	case Same:
		r.NoStep = true
		r.Why = fmt.Sprintf("%s and %s do not differ by %.1f%%: there is no step to find", short(s.Good), short(bad), 100*s.Threshold)
		return r, nil
	case Undecided:
		r.From, r.To = s.Good, bad
		r.Why = "the whole range's step stayed undecided: " + step.Verdict
		return r, nil
	}
	// The step sets the way probes are judged: an improvement's commits
	// move the other way.
	thr := math.Copysign(math.Max(s.ProbeFloor, math.Abs(step.Shift)/4), step.Shift)
	ref, refShift, refInstr := -1, 0.0, 0.0 // the reference commit's index (-1: Good) and its shifts from Good
	defer shares(r)
	for {
		lo, hi := ref, len(s.Commits)-1
		hiShift, hiInstr := step.Shift, step.Instructions
		if ref >= 0 {
			s.about = len(r.Probes) + 1 + log2(hi-lo)
			// Does the rest of the range move against the last culprit?
			m, err := s.decided(ctx, r, s.Commits[ref], bad, thr)
			if errors.Is(err, ErrBudget) {
				r.Found, r.Why = true, fmt.Sprintf("whether %s moved the cell again after %s was not measured: %v", short(bad), short(s.Commits[ref]), err)
				break
			}
			if err != nil {
				return r, err
			}
			if m.Outcome != Moved {
				if m.Outcome == Undecided {
					r.Why = fmt.Sprintf("whether %s moved the cell again after %s stayed undecided: %s", short(bad), short(m.Base), m.Verdict)
				}
				r.Found = true
				break
			}
			hiShift, hiInstr = refShift+m.Shift, refInstr+m.Instructions
		}
		b := bracket{lo: lo, hi: hi, shift: hiShift, instr: hiInstr}
		if stop, err := s.narrow(ctx, r, &b, ref, thr, refShift, refInstr); stop || err != nil {
			return r, err
		}
		hi, hiShift, hiInstr = b.hi, b.shift, b.instr
		r.Culprits = append(r.Culprits, Culprit{Commit: s.Commits[hi], Before: s.name(hi - 1), Shift: hiShift - refShift,
			Instructions: hiInstr - refInstr})
		// The rest of the step, if the culprit did not make all of it:
		// more than a third of the step, or a probe's threshold, left
		// the step's way (a culprit measured past the whole leaves none).
		left := (step.Shift - hiShift) * math.Copysign(1, step.Shift)
		if hi == len(s.Commits)-1 || left < math.Max(math.Abs(thr), math.Abs(step.Shift)/3) {
			r.Found = true
			break
		}
		ref, refShift, refInstr = hi, hiShift, hiInstr
	}
	return r, nil
}

// bracket is the commits a culprit lies in, (lo, hi], and hi's shifts
// from Good.
type bracket struct {
	lo, hi       int
	shift, instr float64
}

// narrow probes b down to one commit, the culprit at b.hi. stop says the
// search ended there, r saying why (the budget, nothing left that builds,
// a probe undecided).
func (s *Search) narrow(ctx context.Context, r *Result, b *bracket, ref int, thr, refShift, refInstr float64) (stop bool, err error) {
	for b.hi-b.lo > 1 {
		m, at, err := s.probe(ctx, r, b.lo, b.hi, ref, thr)
		if errors.Is(err, ErrBudget) {
			r.From, r.To, r.Why = s.name(b.lo), s.Commits[b.hi], err.Error()
			return true, nil
		}
		if err != nil {
			return true, err
		}
		if at < 0 {
			r.From, r.To = s.name(b.lo), s.Commits[b.hi]
			r.Why = fmt.Sprintf("every commit between %s and %s that was left does not build", short(r.From), short(r.To))
			return true, nil
		}
		switch m.Outcome {
		case Moved:
			b.hi, b.shift, b.instr = at, refShift+m.Shift, refInstr+m.Instructions
		case Same, Against:
			b.lo = at
		default:
			r.From, r.To = s.name(b.lo), s.Commits[b.hi]
			r.Why = fmt.Sprintf("%s stayed undecided against %s: %s", short(m.Head), short(m.Base), m.Verdict)
			return true, nil
		}
	}
	return false, nil
}

// probe measures the buildable commit nearest the middle of (lo, hi)
// against the reference; at is its index, -1 when none builds.
func (s *Search) probe(ctx context.Context, r *Result, lo, hi, ref int, thr float64) (Measurement, int, error) {
	for _, at := range order(lo, hi) {
		c := s.Commits[at]
		if _, skipped := r.Skipped[c]; skipped {
			continue
		}
		m, err := s.decided(ctx, r, s.name(ref), c, thr)
		if errors.Is(err, ErrDoesNotBuild) {
			r.Skipped[c] = err.Error()
			continue
		}
		return m, at, err
	}
	return Measurement{}, -1, nil
}

// shares sets each culprit's share of what they made together: by the
// count where every one has it (exact, where time at one probe is several
// percent wide), else by time.
func shares(r *Result) {
	byCount := len(r.Culprits) > 0
	for _, c := range r.Culprits {
		byCount = byCount && !math.IsNaN(c.Instructions)
	}
	var sum float64
	size := func(c Culprit) float64 {
		if byCount {
			return c.Instructions
		}
		return c.Shift
	}
	for _, c := range r.Culprits {
		sum += size(c)
	}
	for i := range r.Culprits {
		r.Culprits[i].Share = size(r.Culprits[i]) / sum
	}
}

// order is (lo, hi)'s indices from the middle outwards.
func order(lo, hi int) []int {
	mid := lo + (hi-lo)/2
	var out []int
	for d := 0; len(out) < hi-lo-1; d++ {
		for _, i := range []int{mid - d, mid + d + 1} {
			if i > lo && i < hi && len(out) < hi-lo-1 {
				out = append(out, i)
			}
		}
	}
	return out
}

// decided measures head against base, and once more when undecided.
func (s *Search) decided(ctx context.Context, r *Result, base, head string, thr float64) (Measurement, error) {
	var m Measurement
	for try := 0; try < 2; try++ {
		if !s.Deadline.IsZero() && time.Now().After(s.Deadline) {
			if try > 0 {
				return m, nil // undecided, and no time to measure again
			}
			return m, fmt.Errorf("%w before %s against %s could be measured", ErrBudget, short(head), short(base))
		}
		ev := Event{Probe: len(r.Probes) + 1, About: max(s.about, len(r.Probes)+1), Measurement: Measurement{Base: base, Head: head}}
		if s.Progress != nil {
			s.Progress(ev)
		}
		var err error
		m, err = s.Measure(ctx, base, head, thr)
		if err != nil {
			return m, err
		}
		r.Probes = append(r.Probes, m)
		ev.Measurement, ev.Done = m, true
		if s.Progress != nil {
			s.Progress(ev)
		}
		if m.Outcome != Undecided {
			return m, nil
		}
	}
	return m, nil
}

// log2 is how many probes narrow n commits to one.
func log2(n int) int { return int(math.Ceil(math.Log2(float64(max(n, 1))))) }

// name is the commit at index i, Good for -1.
func (s *Search) name(i int) string {
	if i < 0 {
		return s.Good
	}
	return s.Commits[i]
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
