package cli

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

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
	shortCells(&b, res, res.Set())
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
	shortCells(&b, &starved, starved.Set())
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
	shortCells(&b, &none, none.Set())
	if b.Len() != 0 {
		t.Errorf("a cell with no window kept is named twice: %q", b.String())
	}
	// Two short cells: the range of their kept windows, and the fewest.
	d := harness.Cell{Impl: impls.All()[1], Workload: workloads.Issuer, Threads: 1}
	two := *res
	two.Cells = []harness.Cell{c, d}
	two.Samples = slices.Clone(res.Samples)
	for range 5 {
		two.Samples = append(two.Samples, harness.Sample{Cell: d, Metrics: []workloads.Metric{{Value: 700, Unit: records.NsPerOp}}})
	}
	b.Reset()
	shortCells(&b, &two, two.Set())
	if want := "2 cells kept 4 to 5 of 6 windows (the fewest: " + c.Name() + ", 4)"; !strings.Contains(b.String(), want) {
		t.Errorf("two short cells say %q, want %q in it", b.String(), want)
	}
	// The fewest is a store's cell, not the floor's that the machine's
	// reference is: a floor short of more windows names no design.
	floor := harness.Cell{Workload: workloads.Floor, Threads: 1}
	floored := *res
	floored.Cells = []harness.Cell{c, floor}
	floored.Samples = slices.Clone(res.Samples)
	for range 2 {
		floored.Samples = append(floored.Samples, harness.Sample{Cell: floor, Metrics: []workloads.Metric{{Value: 5, Unit: records.NsPerOp}}})
	}
	b.Reset()
	shortCells(&b, &floored, floored.Set())
	if want := "(the fewest: " + c.Name() + ", 4)"; !strings.Contains(b.String(), want) {
		t.Errorf("a short floor and a short store say %q, want %q in it", b.String(), want)
	}
	res.Samples = append(res.Samples, sample(""), sample(""))
	b.Reset()
	shortCells(&b, res, res.Set())
	if b.Len() != 0 {
		t.Errorf("a run whose cells kept every round says %q", b.String())
	}
}

// TestTheRepairTakesTheRoundsUnlessTold: every run, the main job
// included, repairs for as long as its planned rounds of the short cells
// take (0: harness.Quarantine's default) unless -repair says otherwise.
func TestTheRepairTakesTheRoundsUnlessTold(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0},
		{[]string{"-window", "100ms", "-o", ""}, 0},
		{[]string{"-rounds", "3"}, 0},
		{[]string{"-impl", "sorted"}, 0},
		{[]string{"-repair", "4"}, 4},
		{[]string{"-impl", "rcu", "-repair", "2"}, 2},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		f := newRunFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		opts, err := f.options()
		if err != nil {
			t.Fatalf("run %v: %v", tc.args, err)
		}
		if opts.Quarantine.Extra != tc.want {
			t.Errorf("run %v: the harness repairs for %d rounds, want %d", tc.args, opts.Quarantine.Extra, tc.want)
		}
	}
}
