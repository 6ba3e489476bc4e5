package changepoint_test

import (
	"fmt"

	"github.com/perfrun/perfrun/history/changepoint"
)

// A series of one cell's medians over commits, 100 ns with noise and then
// 110 ns from the thirteenth commit on: Detect finds the step, ShiftOf
// says how large it is with its interval.
func ExampleDetect() {
	x := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 101, 100,
		110, 111, 109, 110, 112, 108, 110, 111, 109, 110}
	for _, c := range changepoint.Detect(x, changepoint.Options{Seed: 1}) {
		st := changepoint.ShiftOf(x[:c.Index], x[c.Index:])
		fmt.Printf("step before point %d (p = %.3f): %+.1f [%+.1f, %+.1f]\n", c.Index, c.P, st.Shift, st.Low, st.High)
	}
	// Output:
	// step before point 12 (p = 0.005): +10.0 [+9.0, +11.0]
}
