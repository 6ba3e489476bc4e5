package harness

import (
	"math"
	"testing"

	"golang.org/x/perf/benchmath"
)

// TestIntervalWindowsIsBenchmaths: a median of IntervalWindows samples has
// a 95% interval in benchmath, as benchstat computes it, and one of a
// sample fewer has none (± ∞): the repair's floor is benchstat's.
func TestIntervalWindowsIsBenchmaths(t *testing.T) {
	interval := func(n int) bool {
		values := make([]float64, n)
		for i := range values {
			values[i] = 100 + float64(i)
		}
		s := benchmath.AssumeNothing.Summary(benchmath.NewSample(values, &benchmath.DefaultThresholds), 0.95)
		return !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && s.Lo > 0
	}
	if !interval(IntervalWindows) || interval(IntervalWindows-1) {
		t.Errorf("benchmath gives an interval at %d samples: %v, at %d: %v; want at %d and not below",
			IntervalWindows, interval(IntervalWindows), IntervalWindows-1, interval(IntervalWindows-1), IntervalWindows)
	}
}
