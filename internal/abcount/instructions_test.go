package abcount

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// TestCellOpsArgs: a store cell's name gives the cell-ops flags that
// rebuild it; a cell no store measures gives none.
func TestCellOpsArgs(t *testing.T) {
	set := records.New("t", "")
	set.Add(&benchfmt.Result{Name: benchfmt.Name("Issuer/impl=hashmap/certs=256/hit=1/threads=1"), Iters: 1})
	set.Add(&benchfmt.Result{Name: benchfmt.Name("Control/threads=1"), Iters: 1})
	c, _ := set.Cell("Issuer/impl=hashmap/certs=256/hit=1/threads=1")
	args, ok := CellOpsArgs(c)
	if want := "-workload issuer -impl hashmap -param certs=256 -param hit=1"; !ok || strings.Join(args, " ") != want {
		t.Errorf("got %q, %v; want %q", args, ok, want)
	}
	ctl, _ := set.Cell("Control/threads=1")
	if _, ok := CellOpsArgs(ctl); ok {
		t.Error("the control cell gave cell-ops flags")
	}
}

// TestInstructionsSettle: one count a side settles only when the two
// agree; two a side when each side's agree; five always.
func TestInstructionsSettle(t *testing.T) {
	for _, tc := range []struct {
		counts [2][]float64
		want   int
		ok     bool
	}{
		{[2][]float64{{100}, {100.001}}, 1, true},
		{[2][]float64{{100}, {110}}, 1, false},
		{[2][]float64{{100, 100}, {110, 110}}, 2, true},
		{[2][]float64{{100, 102}, {110, 110}}, 2, false},
		{[2][]float64{{100, 102, 99, 101, 100}, {110, 111, 108, 110, 109}}, 5, true},
	} {
		if got := settled(tc.counts, tc.want); got != tc.ok {
			t.Errorf("%v at %d: %v, want %v", tc.counts, tc.want, got, tc.ok)
		}
	}
}

// TestInstructionsFileRoundTrip: the counts ab -report records are what
// -replay judges again; a forged file (a name with a line break, a count
// that is none) is refused.
func TestInstructionsFileRoundTrip(t *testing.T) {
	name := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	counts := Counts{name: {{346.6, 346.6}, {389.1, 389.1}}}
	names, back, err := ReadInstructions(WriteInstructions([]string{name}, counts))
	if err != nil || len(names) != 1 || len(back[name][0]) != 2 || back[name][1][0] != 389.1 {
		t.Fatalf("read back %v %v: %v", names, back, err)
	}
	v := InstructionVerdicts(compare.DefaultThresholds, names, back)
	if len(v) != 1 || v[0].Verdict != compare.Regression {
		t.Errorf("+12%% instructions: %+v, want REGRESSION", v)
	}
}
