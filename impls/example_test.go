package impls_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls"
)

// The registry names every built-in design in the order every table and
// plot shows them; Lookup finds one by the name the command line uses.
func ExampleLookup() {
	fmt.Println(impls.Names()[:4])
	im, err := impls.Lookup("hashmap")
	if err != nil {
		panic(err)
	}
	fmt.Println(im.Description)
	_, err = impls.Lookup("btree")
	fmt.Println(err != nil)
	// Output:
	// [sorted sortoninsert hashmap rcu]
	// OpenSSL 4.0 (PR 28599): name -> short list map under a read/write lock
	// true
}
