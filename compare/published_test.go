package compare

import (
	"math"
	"testing"
)

// TestTimesFasterAsHyperfine: the de-duplication patch's two hyperfine
// tables give back the ratios hyperfine printed, 5.32 ± 0.06 and
// 84.48 ± 2.42.
func TestTimesFasterAsHyperfine(t *testing.T) {
	for _, tc := range []struct {
		before, after Summary
		r, e          float64
	}{
		{Summary{6.685, 0.017, 10}, Summary{1.256, 0.013, 10}, 5.32, 0.06},
		{Summary{176.295, 4.147, 10}, Summary{2.087, 0.034, 10}, 84.48, 2.42},
	} {
		r, e := TimesFaster(tc.before, tc.after)
		// hyperfine divided its unrounded means; the table prints them to
		// the millisecond (176.295 / 2.087 is 84.473).
		if math.Abs(r-tc.r) > 0.01 || math.Abs(e-tc.e) > 0.005 {
			t.Errorf("TimesFaster(%v, %v) = %.2f ± %.2f, hyperfine printed %.2f ± %.2f", tc.before, tc.after, r, e, tc.r, tc.e)
		}
	}
}

// TestApartAsJMH: JDK PR 8199's resume=true TLSv1.2 scores are apart,
// its resume=false TLSv1.2 scores overlap.
func TestApartAsJMH(t *testing.T) {
	if !Apart(Summary{1407.320, 302.562, 5}, Summary{2267.325, 119.800, 5}) {
		t.Error("1407.320 ± 302.562 and 2267.325 ± 119.800 overlap?")
	}
	if Apart(Summary{280.003, 69.273, 5}, Summary{340.275, 72.833, 5}) {
		t.Error("280.003 ± 69.273 and 340.275 ± 72.833 are apart?")
	}
}
