package predicted_test

import (
	"math"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// The grid the reference constants are fitted on: every hand-off and
// transfer, in ns, from the lowest to the highest in steps.
const (
	handoffFrom, handoffTo, handoffStep    = 600.0, 2000.0, 50.0
	transferFrom, transferTo, transferStep = 20.0, 80.0, 2.0
)

// worst is the largest miss of the calibration stand-ins, |log(predicted
// ÷ published)| over every published n from 4 to 18, with the hand-off h
// and the transfer x (in ns) as all three constants.
func worst(t *testing.T, tables *records.Set, h, x float64) float64 {
	t.Helper()
	k := predict.Reference
	k.Mid = predict.Constants{Handoff: h * 1e-9, Transfer: x * 1e-9}
	k.Low, k.High = k.Mid, k.Mid
	w := 0.0
	for _, s := range calibration {
		for _, r := range heldRatios(t, s, tables, k) {
			w = math.Max(w, math.Abs(math.Log(r)))
		}
	}
	return w
}

// cornersWithin narrows the band [lo, hi] of hand-offs and transfers, a
// grid step at a time, until each of its four corners keeps every
// calibration stand-in within limit: each step moves in the edge whose
// move leaves the worst corner missing least.
func cornersWithin(t *testing.T, tables *records.Set, lo, hi [2]float64, limit float64) ([2]float64, [2]float64) {
	worstCorner := func(lo, hi [2]float64) float64 {
		w := 0.0
		for _, h := range []float64{lo[0], hi[0]} {
			for _, x := range []float64{lo[1], hi[1]} {
				w = math.Max(w, worst(t, tables, h, x))
			}
		}
		return w
	}
	steps := [2]float64{handoffStep, transferStep}
	for worstCorner(lo, hi) > limit {
		bestLo, bestHi, least := lo, hi, math.Inf(1)
		for i := range steps {
			l, h := lo, hi
			l[i] += steps[i]
			if w := worstCorner(l, hi); l[i] <= hi[i] && w < least {
				bestLo, bestHi, least = l, hi, w
			}
			h[i] -= steps[i]
			if w := worstCorner(lo, h); lo[i] <= h[i] && w < least {
				bestLo, bestHi, least = lo, h, w
			}
		}
		if least == math.Inf(1) {
			t.Fatalf("no band of hand-offs and transfers keeps its corners within %.0f%%", 100*(math.Exp(limit)-1))
		}
		lo, hi = bestLo, bestHi
	}
	return lo, hi
}

// TestReferenceIsCalibrated fits the hand-off and the transfer to the
// calibration stand-ins again, on the grid: predict.Reference's middle must be the
// pair that misses least, and its Low and High the corners of the pairs
// that keep every calibration stand-in within ±25%, narrowed until each
// corner is within too (cornersWithin). A constant set by hand, or a model change that moves the fit, fails
// here until the constants are fitted again and the docs say so.
func TestReferenceIsCalibrated(t *testing.T) {
	tables, err := published.PR28599()
	if err != nil {
		t.Fatal(err)
	}
	limit := math.Log(1.25)
	best, bh, bx := math.Inf(1), 0.0, 0.0
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{}
	for h := handoffFrom; h <= handoffTo; h += handoffStep {
		for x := transferFrom; x <= transferTo; x += transferStep {
			w := worst(t, tables, h, x)
			if w < best {
				best, bh, bx = w, h, x
			}
			if w <= limit {
				lo = [2]float64{math.Min(lo[0], h), math.Min(lo[1], x)}
				hi = [2]float64{math.Max(hi[0], h), math.Max(hi[1], x)}
			}
		}
	}
	lo, hi = cornersWithin(t, tables, lo, hi, limit)
	t.Logf("best hand-off %.0f ns, transfer %.0f ns: within %.1f%%; within ±25%%: hand-off %.0f to %.0f ns, transfer %.0f to %.0f ns",
		bh, bx, 100*(math.Exp(best)-1), lo[0], hi[0], lo[1], hi[1])
	ns := func(c predict.Constants) [2]float64 {
		return [2]float64{math.Round(1e9 * c.Handoff), math.Round(1e9 * c.Transfer)}
	}
	if got := ns(predict.Reference.Mid); got != [2]float64{bh, bx} {
		t.Errorf("predict.Reference.Mid is hand-off %.0f ns, transfer %.0f; the fit is %.0f and %.0f", got[0], got[1], bh, bx)
	}
	if got := ns(predict.Reference.Low); got != lo {
		t.Errorf("predict.Reference.Low is %v ns; the fit's lowest within ±25%% is %v", got, lo)
	}
	if got := ns(predict.Reference.High); got != hi {
		t.Errorf("predict.Reference.High is %v ns; the fit's highest within ±25%% is %v", got, hi)
	}
	for _, h := range []float64{lo[0], hi[0]} {
		for _, x := range []float64{lo[1], hi[1]} {
			if w := worst(t, tables, h, x); w > limit {
				t.Errorf("the corner hand-off %.0f ns, transfer %.0f ns misses by %.0f%%: the band's edges are not all within ±25%%", h, x, 100*(math.Exp(w)-1))
			}
		}
	}
}
