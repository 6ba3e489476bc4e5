package compare

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestFiveTightRoundsPass: hashmap at 1 thread in two default runs of one
// commit (testdata/journey/floor-probe/set-c, runs 1 and 2), every
// round within 2.5% of the others. Trimmed to three values a side, the
// estimate's degrees of freedom fell to about 2.5 and its upper bound to
// +5.4%, over the threshold; untrimmed it is a PASS.
func TestFiveTightRoundsPass(t *testing.T) {
	file := func(ns ...float64) *records.Set {
		var b strings.Builder
		b.WriteString("cores: 2\n")
		for _, v := range ns {
			fmt.Fprintf(&b, "BenchmarkIssuer/impl=hashmap/certs=1024/hit=1/threads=1 1 %g ns/op\n", v)
		}
		s, err := records.Read(strings.NewReader(b.String()), "run", "run")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	old := file(33.2, 33.2, 34.7, 35.1, 33.1)
	new := file(33.4, 32.9, 34.0, 33.6, 34.3)
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cells {
		if c.Unit == DefaultThresholds.Metric && c.Verdict != Pass {
			t.Errorf("%s: %s: %s", c.Name, c.Verdict, c.Reason)
		}
	}
}
