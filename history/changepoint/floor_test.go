package changepoint

import (
	"math"
	"testing"
)

// perfectStep is n points, the first tau about 1 and the rest about 2:
// a step no noise hides, in noise that makes a reordering's sums round
// differently from the series' own.
func perfectStep(n, tau int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 + 0.013*math.Sin(float64(7*i))
		if i >= tau {
			x[i]++
		}
	}
	return x
}

// TestFloorBoundsAPerfectStep: a step no noise hides in 9 points gets
// about Floor on average, above the default Alpha (a reordering that
// splits the same two sets ties, however its sums round), and passes in
// few seeds; at Shortest's length it passes in most.
func TestFloorBoundsAPerfectStep(t *testing.T) {
	short := Shortest(Options{})
	if short != 11 {
		t.Errorf("Shortest at the defaults = %d, want 11 (2/C(10,5) = 0.0079 is still above 0.01 less the test's resolution)", short)
	}
	for _, c := range []struct {
		n, tau int
		passes bool
	}{{9, 4, false}, {9, 6, false}, {short, short / 2, true}} {
		floor := Floor(c.n, c.tau, Options{})
		passed := 0
		var sum float64
		const seeds = 200
		for seed := range uint64(seeds) {
			got, ok := Nearest(perfectStep(c.n, c.tau), Options{Seed: seed})
			if !ok || got.Index != c.tau {
				t.Fatalf("n=%d: nearest split %+v, %v; want at %d", c.n, got, ok, c.tau)
			}
			sum += got.P
			if len(Detect(perfectStep(c.n, c.tau), Options{Seed: seed})) > 0 {
				passed++
			}
		}
		if mean := sum / seeds; mean < floor/1.2 || mean > floor*1.2 {
			t.Errorf("n=%d: a perfect step's mean p %.4f, Floor says %.4f", c.n, mean, floor)
		}
		if (2*passed > seeds) != c.passes {
			t.Errorf("n=%d: a perfect step found in %d of %d seeds at alpha 0.01, want most: %v", c.n, passed, seeds, c.passes)
		}
	}
}

// TestFloorEdges: no split, or a resolution coarser than Alpha, has no
// floor below 1 or no shortest length.
func TestFloorEdges(t *testing.T) {
	if f := Floor(9, 0, Options{}); f != 1 {
		t.Errorf("Floor at tau 0 = %g, want 1", f)
	}
	if n := Shortest(Options{Permutations: 50}); n != 0 {
		t.Errorf("Shortest with 50 permutations at alpha 0.01 = %d, want 0: 1/51 is above it", n)
	}
	if f := Floor(1000, 500, Options{}); f != 1.0/200 {
		t.Errorf("Floor of 1000 points = %g, want the resolution 1/200", f)
	}
}
