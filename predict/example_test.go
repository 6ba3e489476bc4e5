package predict_test

import (
	"fmt"

	"github.com/perfrun/perfrun/predict"
)

// A store that holds its one lock for 90% of a call, and one that holds
// none, at 1, 2 and 16 threads on a machine whose hand-off is 1 µs.
func ExamplePredict() {
	k := predict.Constants{Handoff: 1e-6, Transfer: 1e-7}
	for _, c := range []predict.Cell{
		{Name: "stack", PerCall: 2e-6, Instructions: 2000, ExclusiveLocks: 1, LockedInstructions: 1800, Atomics: 2},
		{Name: "rcu", PerCall: 2e-6, Instructions: 2000},
	} {
		b, err := predict.Predict(c, k, k, k, []int{1, 2, 16})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %.1f %.1f %.1f µs/call\n", c.Name, 1e6*b.Mid[0], 1e6*b.Mid[1], 1e6*b.Mid[2])
	}
	// Output:
	// stack: 2.0 4.6 43.8 µs/call
	// rcu: 2.0 2.0 2.0 µs/call
}
