package compare_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// rounds writes a cell's rounds as a results file holds them.
func rounds(name string, nsPerOp ...float64) string {
	var b strings.Builder
	b.WriteString("cores: 2\n")
	for _, v := range nsPerOp {
		fmt.Fprintf(&b, "Benchmark%s 1 %g ns/op\n", name, v)
	}
	return b.String()
}

// Gate decides per cell at the threshold: here hashmap's lookups got 12%
// slower over ten rounds a side, far past the 5% that matters, and rcu's
// did not move.
func ExampleGate() {
	old := rounds("Issuer/impl=hashmap/threads=1", 750, 752, 748, 755, 749, 751, 753, 747, 750, 754) +
		rounds("Issuer/impl=rcu/threads=1", 700, 702, 698, 701, 699, 703, 700, 697, 701, 702)[len("cores: 2\n"):]
	new := rounds("Issuer/impl=hashmap/threads=1", 840, 842, 838, 845, 839, 841, 843, 837, 840, 844) +
		rounds("Issuer/impl=rcu/threads=1", 701, 699, 700, 702, 698, 700, 703, 699, 700, 701)[len("cores: 2\n"):]
	a, err := records.Read(strings.NewReader(old), "old.txt", "old")
	if err != nil {
		panic(err)
	}
	b, err := records.Read(strings.NewReader(new), "new.txt", "new")
	if err != nil {
		panic(err)
	}
	rep, err := compare.Gate(a, b, compare.DefaultThresholds)
	if err != nil {
		panic(err)
	}
	rep.WriteText(os.Stdout)
	// Output:
	// verdict: REGRESSION (old vs new, threshold 5%)
	// note: the machine at 1 thread, new against old: not seen (no speed probe or control kept in both runs), so how far it moved is unknown
	//
	// REGRESSION  Issuer/impl=hashmap/threads=1  sec/op  1.120  +12.0% [+11.6%, +12.4%]: at least 11.6% slower, above the 5% threshold (p=4.8e-12, corrected for 2 cells)
	// 1 more verdicts PASS or not gated: -v prints every one with its whole reason
}
