package foreign_test

import (
	"fmt"

	"github.com/perfrun/perfrun/harness/foreign"
)

// A foreign tool's command line, filled for a window of two threads, and
// the time per call it printed, read in nanoseconds.
func Example() {
	cmd, err := foreign.Parse("xsi=./x509storeissuer -t {corpus} {threads}", "us")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cmd.Name, cmd.Expand(2, "/tmp/corpus", 0))
	ns, err := cmd.Time([]byte("Average time per call: 2.43us\n"))
	fmt.Println(ns, err)
	// Output:
	// xsi [./x509storeissuer -t /tmp/corpus 2]
	// 2430 <nil>
}
