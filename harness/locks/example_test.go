package locks_test

import (
	"fmt"

	"github.com/perfrun/perfrun/harness/locks"
)

// A profile's values go into a results file one unit each, as every
// perfrun reader and benchstat read them.
func ExampleProfile_Values() {
	p := locks.Profile{ExclusiveLocks: 1, LockedInstructions: 1796, Atomics: 2}
	for i, v := range p.Values() {
		fmt.Printf("%g %s\n", v, locks.Units[i])
	}
	// Output:
	// 1 exclusive-locks/op
	// 0 shared-locks/op
	// 1796 locked-instructions/op
	// 0 shared-locked-instructions/op
	// 2 atomics/op
}
