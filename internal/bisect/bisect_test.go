package bisect

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// fake is a range of commits with known levels: a measurement moves when
// head's level differs from base's by more than the threshold.
type fake struct {
	level    map[string]float64
	broken   map[string]bool
	undecide map[string]bool
	measured int
}

func (f *fake) measure(_ context.Context, base, head string, thr float64) (Measurement, error) {
	if f.broken[head] {
		return Measurement{}, fmt.Errorf("%s: %w: syntax error", head, ErrDoesNotBuild)
	}
	f.measured++
	d := f.level[head]/f.level[base] - 1
	m := Measurement{Base: base, Head: head, Shift: d, Low: d - 0.01, High: d + 0.01, Instructions: d, Wall: time.Minute}
	switch {
	case f.undecide[head]:
		m.Outcome = Undecided
	case d*thr > 0 && math.Abs(d) > math.Abs(thr):
		m.Outcome = Moved
	case d*thr < 0 && math.Abs(d) > math.Abs(thr):
		m.Outcome = Against
	}
	return m, nil
}

// rangeOf is 16 commits c1…c16 after c0, each multiplying the level by
// its factor in steps (1 where absent).
func rangeOf(steps map[int]float64) (*fake, *Search) {
	f := &fake{level: map[string]float64{"c0": 100}, broken: map[string]bool{}, undecide: map[string]bool{}}
	s := &Search{Good: "c0", Threshold: 0.05, ProbeFloor: 0.02}
	lvl := 100.0
	for i := 1; i <= 16; i++ {
		if k, ok := steps[i]; ok {
			lvl *= k
		}
		c := fmt.Sprintf("c%d", i)
		f.level[c] = lvl
		s.Commits = append(s.Commits, c)
	}
	s.Measure = f.measure
	return f, s
}

func TestOneCulprit(t *testing.T) {
	for at := 1; at <= 16; at++ {
		f, s := rangeOf(map[int]float64{at: 1.15})
		r, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Found || len(r.Culprits) != 1 || r.Culprits[0].Commit != fmt.Sprintf("c%d", at) {
			t.Fatalf("step at c%d: found %+v (%s)", at, r.Culprits, r.Why)
		}
		if f.measured > 5 {
			t.Errorf("step at c%d: %d measurements, want at most 5 (the range, then 4 probes)", at, f.measured)
		}
		if sh := r.Culprits[0].Share; math.Abs(sh-1) > 1e-9 {
			t.Errorf("step at c%d: share %.3f, want all of it", at, sh)
		}
	}
}

func TestTwoCulprits(t *testing.T) {
	_, s := rangeOf(map[int]float64{5: 1.08, 11: 1.08})
	r, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || len(r.Culprits) != 2 || r.Culprits[0].Commit != "c5" || r.Culprits[1].Commit != "c11" {
		t.Fatalf("found %+v (%s)", r.Culprits, r.Why)
	}
	for _, c := range r.Culprits {
		if c.Share < 0.4 || c.Share > 0.6 {
			t.Errorf("%s's share %.2f, want about half", c.Commit, c.Share)
		}
	}
}

func TestNoStep(t *testing.T) {
	f, s := rangeOf(nil)
	r, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Found || !r.NoStep || len(r.Culprits) != 0 || f.measured != 1 {
		t.Errorf("no step: %+v after %d measurements", r, f.measured)
	}
}

func TestSkipsWhatDoesNotBuild(t *testing.T) {
	f, s := rangeOf(map[int]float64{9: 1.15})
	f.broken["c10"], f.broken["c12"] = true, true
	r, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || len(r.Culprits) != 1 || r.Culprits[0].Commit != "c9" {
		t.Fatalf("found %+v (%s), skipped %v", r.Culprits, r.Why, r.Skipped)
	}
	if _, ok := r.Skipped["c12"]; !ok || len(r.Skipped) != 2 {
		t.Errorf("skipped %v, want c10 and c12 named", r.Skipped)
	}
	// A culprit right after a commit that does not build can only be
	// narrowed to both, as git bisect does: no guess.
	f, s = rangeOf(map[int]float64{9: 1.15})
	f.broken["c8"] = true
	r, err = s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Found || r.From != "c7" || r.To != "c9" || !strings.Contains(r.Why, "does not build") {
		t.Errorf("culprit after a broken commit: found %v, range %s..%s (%s)", r.Found, r.From, r.To, r.Why)
	}
}

func TestUndecidedStops(t *testing.T) {
	f, s := rangeOf(map[int]float64{9: 1.15})
	f.undecide["c8"] = true
	r, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Found || r.From == "" || r.To == "" || !strings.Contains(r.Why, "undecided") {
		t.Fatalf("an undecided probe: %+v", r)
	}
	n := 0
	for _, p := range r.Probes {
		if p.Head == "c8" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("c8 measured %d times, want twice (once again when undecided)", n)
	}
}
