package published_test

import (
	"fmt"

	"github.com/perfrun/perfrun/predict/published"
)

// The published scaling of the store the sorted model stands for.
func Example() {
	set, err := published.PR28599()
	if err != nil {
		panic(err)
	}
	s := published.StandsFor["sorted"]
	r, _ := published.Scaling(set, s.Impl, 16)
	fmt.Printf("%s: %.2f× its 1-thread time at 16 threads\n", s.Store, r)
	// Output: 3.0's sorted stack: 15.53× its 1-thread time at 16 threads
}
