package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// synthetic is a series of n commits at level 100 with steps (relative
// changes of the level) at the given positions, in noise: each value is
// the level times 1+e, e uniform within ±noise, or Gaussian with standard
// deviation noise when gauss.
func synthetic(seed uint64, n int, at []int, steps []float64, noise float64, gauss bool) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	level := 100.0
	k := 0
	for i := range x {
		if k < len(at) && i == at[k] {
			level *= 1 + steps[k]
			k++
		}
		e := noise * (2*rng.Float64() - 1)
		if gauss {
			e = noise * rng.NormFloat64()
		}
		x[i] = level * (1 + e)
	}
	return x
}

var seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}

var (
	stepsAt = []int{50, 110, 160}
	steps   = []float64{0.05, -0.08, 0.03}
)

// TestFindsThreeSteps is the target: 200 commits with steps of
// +5%, −8% and +3% in 3% noise (every value within ±3% of its level), at
// the defaults. The +5% and −8% steps are found within two commits for
// every seed, with at most one step that is not there. The +3% step is as
// large as the noise, and no estimator places it within two commits every
// time: given the right segment, E-divisive's statistic does in 175 of 200
// seeds, least squares in 177, ranks in 171. So it must be found within
// five commits every time and within two in at least 17 of 20 seeds.
func TestFindsThreeSteps(t *testing.T) {
	close := 0
	for _, seed := range seeds {
		x := synthetic(seed, 200, stepsAt, steps, 0.03, false)
		found := Detect(x, Options{Seed: seed})
		t.Logf("seed %d: found %v", seed, describe(found))
		what := fmt.Sprintf("seed %d", seed)
		if checkFound(t, what, found, stepsAt, steps, 2, []bool{true, true, false})[2] {
			close++
		}
		checkFound(t, what, found, stepsAt, steps, 5, []bool{true, true, true})
	}
	t.Logf("the +3%% step found within 2 commits in %d of %d seeds", close, len(seeds))
	if close < 17 {
		t.Errorf("the +3%% step found within 2 commits in %d of %d seeds, want at least 17", close, len(seeds))
	}
}

// TestFindsStepsInGaussianNoise: with Gaussian noise of standard deviation
// 3% the +3% step is one standard deviation and the +5% step 1.7, and a
// segment's noise alone now and then looks like a step. The −8% step must
// be found within two commits every time, the +5% step in at least 12 of
// 20 seeds, and no seed may have more than four steps found.
func TestFindsStepsInGaussianNoise(t *testing.T) {
	var close [3]int
	for _, seed := range seeds {
		x := synthetic(seed, 200, stepsAt, steps, 0.03, true)
		found := Detect(x, Options{Seed: seed})
		t.Logf("seed %d: found %v", seed, describe(found))
		matched, _ := match(found, stepsAt, 2)
		for i, ok := range matched {
			if ok {
				close[i]++
			}
		}
		if !matched[1] {
			t.Errorf("seed %d: the -8%% step at 110 was not found within 2 commits: found %v", seed, describe(found))
		}
		if len(found) > 4 {
			t.Errorf("seed %d: %d steps found in a series of three: %v", seed, len(found), describe(found))
		}
	}
	t.Logf("found within 2 commits in %v of %d seeds", close, len(seeds))
	if close[0] < 12 {
		t.Errorf("the +5%% step found within 2 commits in %d of %d seeds, want at least 12", close[0], len(seeds))
	}
}

func checkFound(t *testing.T, what string, found []Change, at []int, steps []float64, within int, must []bool) []bool {
	t.Helper()
	matched, false_ := match(found, at, within)
	for i, ok := range matched {
		if !ok && must[i] {
			t.Errorf("%s: the %+.0f%% step at %d was not found within %d commits: found %v", what, 100*steps[i], at[i], within, describe(found))
		}
	}
	if false_ > 1 {
		t.Errorf("%s: %d steps found more than %d commits from any step: %v", what, false_, within, describe(found))
	}
	return matched
}

// TestFlatSeriesHasNoSteps: a series without steps, in either noise,
// gives none, for every seed; nor does one of identical values.
func TestFlatSeriesHasNoSteps(t *testing.T) {
	for _, seed := range seeds {
		for _, gauss := range []bool{false, true} {
			x := synthetic(seed+100, 200, nil, nil, 0.03, gauss)
			if found := Detect(x, Options{Seed: seed}); len(found) != 0 {
				t.Errorf("seed %d (gaussian %v): flat series, found %v", seed, gauss, describe(found))
			}
		}
	}
	same := make([]float64, 200)
	for i := range same {
		same[i] = 7
	}
	if found := Detect(same, Options{}); len(found) != 0 {
		t.Errorf("constant series: found %v", describe(found))
	}
}

// TestFalseStepRate: over 400 flat series (200 seeds, both noises) the
// fraction with a step found stays near the test's level of 1%.
func TestFalseStepRate(t *testing.T) {
	if testing.Short() {
		t.Skip("400 series")
	}
	withStep := 0
	for seed := uint64(1000); seed < 1200; seed++ {
		for _, gauss := range []bool{false, true} {
			if len(Detect(synthetic(seed, 200, nil, nil, 0.03, gauss), Options{Seed: seed})) > 0 {
				withStep++
			}
		}
	}
	t.Logf("%d of 400 flat series had a step found", withStep)
	if withStep > 10 {
		t.Errorf("%d of 400 flat series had a step found; at the 1%% level want about 4, at most 10", withStep)
	}
}

// TestExactCountStep: an exact count (allocations per op) that goes from
// 0 to 1 has its step found at the commit it happened.
func TestExactCountStep(t *testing.T) {
	x := make([]float64, 40)
	for i := 30; i < 40; i++ {
		x[i] = 1
	}
	found := Detect(x, Options{})
	if len(found) != 1 || found[0].Index != 30 {
		t.Fatalf("found %v, want one step at 30", describe(found))
	}
}

// TestStepNearTheEnd: a step is placed at its commit once MinSize points
// follow it.
func TestStepNearTheEnd(t *testing.T) {
	x := synthetic(1, 62, []int{57}, []float64{0.5}, 0.01, false)
	if found := Detect(x, Options{}); len(found) != 1 || found[0].Index != 57 {
		t.Errorf("step 5 points before the end: found %v, want it at 57", describe(found))
	}
}

// TestBestSplitMatchesDefinition checks the O(n log n) statistic against
// the definition's double sums, on values with ties.
func TestBestSplitMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 50; trial++ {
		n := 4 + rng.IntN(60)
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(8)) + rng.Float64()*float64(rng.IntN(2))
		}
		minSize := 2 + rng.IntN(3)
		tau, q := bestSplit(v, ranksOf(v), minSize, newScratch(n))
		wantTau, wantQ := 0, 0.0
		for t := minSize; t <= n-minSize; t++ {
			if q := direct(v[:t], v[t:]); q > wantQ {
				wantTau, wantQ = t, q
			}
		}
		if tau != wantTau || math.Abs(q-wantQ) > 1e-9*math.Max(1, wantQ) {
			t.Fatalf("%v, min size %d: bestSplit = (%d, %g), definition (%d, %g)", v, minSize, tau, q, wantTau, wantQ)
		}
	}
}

func direct(a, b []float64) float64 {
	m, k := float64(len(a)), float64(len(b))
	cross, wa, wb := 0.0, 0.0, 0.0
	for _, x := range a {
		for _, y := range b {
			cross += math.Abs(x - y)
		}
	}
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			wa += math.Abs(a[i] - a[j])
		}
	}
	for i := range b {
		for j := i + 1; j < len(b); j++ {
			wb += math.Abs(b[i] - b[j])
		}
	}
	return m * k / (m + k) * (2*cross/(m*k) - wa/(m*(m-1)/2) - wb/(k*(k-1)/2))
}

// TestShiftInterval: the interval of a 5-unit shift in unit noise holds 5
// and is narrow; with no shift it holds 0.
func TestShiftInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	before, after, same := make([]float64, 60), make([]float64, 60), make([]float64, 60)
	for i := range before {
		before[i] = 100 + rng.NormFloat64()
		after[i] = 105 + rng.NormFloat64()
		same[i] = 100 + rng.NormFloat64()
	}
	s := ShiftOf(before, after)
	if !(s.Low < 5 && 5 < s.High) || s.High-s.Low > 1.5 || math.Abs(s.Shift-5) > 0.5 {
		t.Errorf("shift of 5: got %.3f [%.3f, %.3f]", s.Shift, s.Low, s.High)
	}
	if z := ShiftOf(before, same); !(z.Low < 0 && 0 < z.High) {
		t.Errorf("no shift: got %.3f [%.3f, %.3f], want an interval holding 0", z.Shift, z.Low, z.High)
	}
}

func match(found []Change, at []int, within int) ([]bool, int) {
	matched := make([]bool, len(at))
	false_ := 0
	for _, c := range found {
		hit := false
		for i, a := range at {
			if !matched[i] && c.Index >= a-within && c.Index <= a+within {
				matched[i], hit = true, true
				break
			}
		}
		if !hit {
			false_++
		}
	}
	return matched, false_
}

func describe(found []Change) string {
	s := "["
	for i, c := range found {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%d(p=%.3f)", c.Index, c.P)
	}
	return s + "]"
}

// TestDetectStops: a search with many permutations on a long series (it
// ignored an interrupt and had no bound) returns as soon as Done closes,
// and Permutations is capped.
func TestDetectStops(t *testing.T) {
	x := synthetic(3, 2000, []int{1000}, []float64{0.001}, 0.05, true)
	done := make(chan struct{})
	result := make(chan []Change, 1)
	go func() { result <- Detect(x, Options{Permutations: 2e12, Alpha: 0.999, Done: done}) }()
	time.Sleep(100 * time.Millisecond)
	close(done)
	select {
	case got := <-result:
		if got != nil {
			t.Errorf("a stopped search returned %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Detect ran on after Done closed")
	}
	if o := (Options{Permutations: 2e12}).withDefaults(); o.Permutations != MaxPermutations {
		t.Errorf("Permutations %d, want capped at %d", o.Permutations, MaxPermutations)
	}
}
