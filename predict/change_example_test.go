package predict_test

import (
	"fmt"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/predict"
)

// A change that makes a hash map's lookups take its write lock, judged at
// 16 threads from the two 1-thread profiles and the fixed constants: no
// time measured by the comparison enters. The reason leads with the term
// of the model that grew the most, the new lock's queue.
func ExampleChange() {
	base := predict.Cell{Name: "hashmap", Instructions: 3418, Atomics: 2}
	head := predict.Cell{Name: "hashmap", Instructions: 3420, ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 4,
		BusiestLocks: 1, BusiestLocked: 50}
	p, err := predict.Change("hashmap", base, head, predict.Threads(16), predict.Fixed)
	if err != nil {
		panic(err)
	}
	v := p.Verdict(compare.DefaultThresholds)
	fmt.Printf("%s %.2f\n%s\n", v.Verdict, v.Ratio, v.Reason)
	// Output:
	// REGRESSION 15.20
	// at 16 threads +1420.0% a call [+1354.4%, +1420.0%]: the busiest exclusive lock's queue 0 ns -> 16.2 µs a call (head: 1 a call held 50 instructions); calls take an exclusive lock, 0 -> 1 per op, holding it 50 instructions an acquisition (alone +1420.0%); instructions 3418 -> 3420 per op (+0.1%) (alone +0.0%)
}
