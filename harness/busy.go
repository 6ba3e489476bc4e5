package harness

import (
	"slices"
	"time"
)

// Others is how many threads of other processes want a CPU while this
// one reads: the median over samples through window of the machine's
// running and runnable threads, less this process's own. Zero on a
// machine that sits idle beside perfrun; 1 beside one busy loop. False
// where the system does not say.
func Others(window time.Duration) (int, bool) {
	const samples = 15
	var seen []int
	for range samples {
		n, ok := runnable()
		if !ok {
			return 0, false
		}
		seen = append(seen, n)
		time.Sleep(window / samples)
	}
	slices.Sort(seen)
	return max(seen[len(seen)/2], 0), true
}
