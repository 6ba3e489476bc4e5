package callgrind_test

import (
	"fmt"

	"github.com/perfrun/perfrun/harness/callgrind"
)

// A program counts only what it chooses: outside valgrind every request
// does nothing, so the same binary runs natively and under callgrind.
func Example() {
	callgrind.StartInstrumentation()
	callgrind.ToggleCollect() // collection on: what follows is counted
	sum := 0
	for i := range 1000 {
		sum += i
	}
	callgrind.ToggleCollect() // off again
	callgrind.DumpStats("loop")
	fmt.Println(sum)
	// Output: 499500
}
