package records_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// A results file is Go benchmark format: Read indexes it by cell, each
// cell's values by tidied unit (ns/call is read as sec/call), and Write
// gives back what benchstat reads.
func ExampleRead() {
	const file = `goos: linux
cores: 2
BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 750 ns/call 1333333 ops/s
BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 760 ns/call 1315789 ops/s
BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 748 ns/call 1336898 ops/s
BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=2 1 770 ns/call 2597402 ops/s
`
	s, err := records.Read(strings.NewReader(file), "results.txt", "new")
	if err != nil {
		panic(err)
	}
	for _, c := range s.Cells() {
		sum := records.Summarize(c.Values["sec/call"])
		fmt.Printf("%s: impl %s, %d thread(s), group %s, median %s over %d round(s)\n",
			c.Name, c.Impl, c.Threads, c.Group, records.FormatValue(sum.Median, "sec/call"), sum.N)
	}
	if err := s.Write(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Issuer/impl=rcu/certs=1024/hit=1/threads=1: impl rcu, 1 thread(s), group Issuer/certs=1024/hit=1, median 750.0n over 3 round(s)
	// Issuer/impl=rcu/certs=1024/hit=1/threads=2: impl rcu, 2 thread(s), group Issuer/certs=1024/hit=1, median 770.0n over 1 round(s)
	// goos: linux
	// cores: 2
	//
	// BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 750 ns/call 1.333333e+06 ops/s
	// BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 760 ns/call 1.315789e+06 ops/s
	// BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=1 1 748 ns/call 1.336898e+06 ops/s
	// BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=2 1 770 ns/call 2.597402e+06 ops/s
}
