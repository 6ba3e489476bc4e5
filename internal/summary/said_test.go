package summary

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// TestUnjudgeableCellsAreNotABaseline: a design's cell whose every sample
// was set aside makes a run no baseline (it was saved, and gated later as
// missing); oversubscribed and reference cells do not count.
func TestUnjudgeableCellsAreNotABaseline(t *testing.T) {
	set, err := records.Read(strings.NewReader(`cores: 2
BenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op
BenchmarkControl/threads=2 1 20 ns/op
quarantined: the host took a core away
BenchmarkIssuer/impl=rcu/threads=2 1 45 ns/op
BenchmarkIssuer/impl=rcu/threads=4 1 90 ns/op
BenchmarkControl/threads=1 1 20 ns/op
`), "r.txt", "r")
	if err != nil {
		t.Fatal(err)
	}
	if got := Unjudgeable(set); !slices.Equal(got, []string{"Issuer/impl=rcu/threads=2"}) {
		t.Errorf("unjudgeable = %q, want the 2-thread design cell only", got)
	}
}

// TestBusyMachineIsNoSuccess: a run whose every sample of every design
// cell was set aside measured nothing: INCONCLUSIVE (exit 3), saying why
// and what to do. One that measured some cells is a result (exit 0, which
// go run keeps), its last line naming the cells set aside.
func TestBusyMachineIsNoSuccess(t *testing.T) {
	aside := "quarantined: a worker waited for a CPU more than 25% of the window\n"
	text := "cores: 2\n" + aside + "BenchmarkIssuer/impl=rcu/certs=64/hit=1/threads=2 1 100 ns/op\n"
	set, err := records.Read(strings.NewReader(text+aside+"BenchmarkIssuer/impl=rcu/certs=64/hit=1/threads=1 1 90 ns/op\n"), "busy.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Busy(set)
	if !errors.Is(err, ErrNothingMeasured) || !strings.Contains(err.Error(), "Issuer/impl=rcu/certs=64/hit=1/threads=2") ||
		!strings.Contains(err.Error(), "perfrun ab") || !strings.Contains(err.Error(), "-quarantine=false") {
		t.Fatalf("busy: %v, want exit 3 naming the cell and what to do", err)
	}
	some, _ := records.Read(strings.NewReader(text+"quarantined: no\nBenchmarkIssuer/impl=rcu/certs=64/hit=1/threads=1 1 90 ns/op\n"), "some.txt", "")
	note, err := Busy(some)
	if err != nil || !strings.HasPrefix(note, "measured, 1 cell set aside") || !strings.Contains(note, "threads=2") {
		t.Errorf("a run that measured some cells: %q, %v; want exit 0 and a note naming the cell", note, err)
	}
	quiet, _ := records.Read(strings.NewReader("cores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 90 ns/op\n"), "quiet.txt", "")
	if note, err := Busy(quiet); err != nil || note != "" {
		t.Errorf("a quiet run: %q, %v", note, err)
	}
}

// TestShortCellsSaysWhichAndWhy: a run whose repair left a cell with
// fewer kept windows than planned names it with its count, says that the
// repair's time ran out and which flag sets it, and what to do; a run whose every cell kept its rounds
// says nothing, as does one whose short cell kept no window (the run's
// last line names it).
func TestShortCellsSaysWhichAndWhy(t *testing.T) {
	impl := impls.All()[0]
	c := harness.Cell{Impl: impl, Workload: workloads.Issuer, Threads: 1}
	o := harness.DefaultOptions
	o.Quarantine.Extra = 1
	res := &harness.Outcome{Cells: []harness.Cell{c}, Options: o, RepairRounds: 1}
	sample := func(why string) harness.Sample {
		return harness.Sample{Cell: c, Metrics: []workloads.Metric{{Value: 900, Unit: records.NsPerOp}}, Quarantine: why}
	}
	for range 4 {
		res.Samples = append(res.Samples, sample(""))
	}
	res.Samples = append(res.Samples, sample("the host"), sample("the host"))
	var b strings.Builder
	ShortCells(&b, res, res.Set())
	for _, want := range []string{"1 cell kept 4 of 6 windows", "the fewest: " + c.Name() + ", 4", "the repair took one round of those cells (-repair)", "± ∞", "With -repair 6 it waits longer."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("short cells say %q, want %q in it", b.String(), want)
		}
	}
	// A cell that kept fewer than half its rounds had the planned rounds'
	// time (the harness says so in RepairRounds).
	starved := *res
	starved.Samples, starved.RepairRounds = res.Samples[2:], o.Rounds
	b.Reset()
	ShortCells(&b, &starved, starved.Set())
	for _, want := range []string{"the repair took 6 rounds of those cells", "A quieter machine keeps more."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("a starved cell's line says %q, want %q in it", b.String(), want)
		}
	}
	if strings.Contains(b.String(), "-repair 6 it waits longer") {
		t.Errorf("a repair that took the planned rounds' time says to wait longer: %q", b.String())
	}
	// A cell that kept none is the last line's to name.
	none := *res
	none.Samples = res.Samples[4:]
	b.Reset()
	ShortCells(&b, &none, none.Set())
	if b.Len() != 0 {
		t.Errorf("a cell with no window kept is named twice: %q", b.String())
	}
	// Two short cells: the range of their kept windows, and the fewest.
	d := harness.Cell{Impl: impls.All()[1], Workload: workloads.Issuer, Threads: 1}
	two := withCell(res, d, 5, 700)
	b.Reset()
	ShortCells(&b, &two, two.Set())
	if want := "2 cells kept 4 to 5 of 6 windows (the fewest: " + c.Name() + ", 4)"; !strings.Contains(b.String(), want) {
		t.Errorf("two short cells say %q, want %q in it", b.String(), want)
	}
	// The fewest is a store's cell, not the floor's that the machine's
	// reference is: a floor short of more windows names no design.
	floored := withCell(res, harness.Cell{Workload: workloads.Floor, Threads: 1}, 2, 5)
	b.Reset()
	ShortCells(&b, &floored, floored.Set())
	if want := "2 cells kept 2 to 4 of 6 windows (the fewest of a store's: " + c.Name() + ", 4)"; !strings.Contains(b.String(), want) {
		t.Errorf("a short floor and a short store say %q, want %q in it", b.String(), want)
	}
	res.Samples = append(res.Samples, sample(""), sample(""))
	b.Reset()
	ShortCells(&b, res, res.Set())
	if b.Len() != 0 {
		t.Errorf("a run whose cells kept every round says %q", b.String())
	}
}

// withCell is res with one more cell, which kept n windows of ns a call.
func withCell(res *harness.Outcome, c harness.Cell, n int, ns float64) harness.Outcome {
	out := *res
	out.Cells = append(slices.Clone(res.Cells), c)
	out.Samples = slices.Clone(res.Samples)
	for range n {
		out.Samples = append(out.Samples, harness.Sample{Cell: c, Metrics: []workloads.Metric{{Value: ns, Unit: records.NsPerOp}}})
	}
	return out
}
