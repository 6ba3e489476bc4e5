package compare

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/harness/results"
)

// build makes a set from name -> unit -> values (one record per value
// index, as rounds), names in sorted order, on a machine of cores cores.
func build(label string, cores int, cells map[string]map[string][]float64) *results.Set {
	s := results.New(label, label+".txt")
	config := []benchfmt.Config{{Key: "cores", Value: []byte(strconv.Itoa(cores)), File: true}}
	for _, name := range slices.Sorted(maps.Keys(cells)) {
		units := slices.Sorted(maps.Keys(cells[name]))
		for i := 0; ; i++ {
			rec := &benchfmt.Result{Config: config, Name: benchfmt.Name(name), Iters: 1}
			for _, u := range units {
				if i < len(cells[name][u]) {
					rec.Values = append(rec.Values, results.Value(cells[name][u][i], u))
				}
			}
			if len(rec.Values) == 0 {
				break
			}
			s.Add(rec)
		}
	}
	return s
}

// cellsOf returns the cells of the names, as a set indexes them.
func cellsOf(names ...string) []*results.Cell {
	m := make(map[string]map[string][]float64)
	for _, n := range names {
		m[n] = ns([]float64{1})
	}
	s := build("cells", 2, m)
	var out []*results.Cell
	for _, n := range names {
		c, _ := s.Cell(n)
		out = append(out, c)
	}
	return out
}

// noisy returns n values around center with relative noise rel.
func noisy(r *rand.Rand, n int, center, rel float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = center * (1 + rel*(r.Float64()*2-1))
	}
	return v
}

func ns(v []float64) map[string][]float64 { return map[string][]float64{"ns/op": v} }

func verdictOf(t *testing.T, rep *Report, name, unit string) CellVerdict {
	t.Helper()
	unit = results.Tidy(unit)
	for _, c := range rep.Cells {
		if c.Name == name && c.Unit == unit {
			return c
		}
	}
	t.Fatalf("no verdict for %s %s in %+v", name, unit, rep.Cells)
	return CellVerdict{}
}

func TestGateVerdicts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 10
	old := build("old", 2, map[string]map[string][]float64{
		"A/threads=1":    ns(noisy(r, n, 100, 0.02)),
		"Slow/threads=1": ns(noisy(r, n, 100, 0.02)),
		"Fast/threads=1": ns(noisy(r, n, 100, 0.02)),
		"Tiny/threads=1": ns(noisy(r, n, 100, 0.002)),
		"Over/threads=4": ns(noisy(r, n, 100, 0.02)),
	})
	new := build("new", 2, map[string]map[string][]float64{
		"A/threads=1":    ns(noisy(r, n, 100, 0.02)),
		"Slow/threads=1": ns(noisy(r, n, 120, 0.02)),
		"Fast/threads=1": ns(noisy(r, n, 80, 0.02)),
		"Tiny/threads=1": ns(noisy(r, n, 102, 0.002)),
		"Over/threads=4": ns(noisy(r, n, 150, 0.02)),
	})
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]Verdict{
		"A/threads=1": Pass, "Slow/threads=1": Regression, "Fast/threads=1": Improved,
		"Tiny/threads=1": Pass, "Over/threads=4": NotGated,
	} {
		if got := verdictOf(t, rep, name, "ns/op"); got.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", name, got.Verdict, got.Reason, want)
		}
	}
	if rep.Verdict != Regression {
		t.Errorf("overall %s, want REGRESSION", rep.Verdict)
	}
	if tiny := verdictOf(t, rep, "Tiny/threads=1", "ns/op"); !strings.Contains(tiny.Reason, "below the 5% minimum effect") {
		t.Errorf("a significant 2%% change should pass as below the minimum effect: %s", tiny.Reason)
	}
}

func TestGateInconclusiveWithFewRounds(t *testing.T) {
	old := build("old", 2, map[string]map[string][]float64{"A/threads=1": ns([]float64{100, 101, 99})})
	new := build("new", 2, map[string]map[string][]float64{"A/threads=1": ns([]float64{200, 201, 199})})
	rep, _ := Gate(old, new, DefaultThresholds)
	if rep.Verdict != Inconclusive {
		t.Fatalf("3 rounds each: %s, want INCONCLUSIVE (a U-test cannot reach 0.05)", rep.Verdict)
	}
}

// TestGateHolm: one cell of twenty at an uncorrected p just under alpha is
// what an uncorrected gate alarms on by chance; Holm does not.
func TestGateHolm(t *testing.T) {
	oldCells, newCells := map[string]map[string][]float64{}, map[string]map[string][]float64{}
	for i := range 20 {
		name := fmt.Sprintf("C%02d/threads=1", i)
		oldCells[name] = ns([]float64{100, 101, 102, 103, 104, 105})
		newCells[name] = ns([]float64{100.5, 101.5, 102.5, 103.5, 104.5, 105.5})
	}
	// C00: 15% slower with one overlapping value: p = 0.0087, which alone
	// is a regression but not after correcting for twenty cells.
	oldCells["C00/threads=1"] = ns([]float64{100, 101, 102, 103, 104, 105})
	newCells["C00/threads=1"] = ns([]float64{103.5, 116, 117, 118, 119, 120})
	alone, _ := Gate(build("old", 2, map[string]map[string][]float64{"C00/threads=1": oldCells["C00/threads=1"]}),
		build("new", 2, map[string]map[string][]float64{"C00/threads=1": newCells["C00/threads=1"]}), DefaultThresholds)
	if alone.Verdict != Regression {
		t.Fatalf("test setup: C00 alone is %s, want REGRESSION", alone.Verdict)
	}
	rep, _ := Gate(build("old", 2, oldCells), build("new", 2, newCells), DefaultThresholds)
	c := verdictOf(t, rep, "C00/threads=1", "ns/op")
	if c.P >= 0.05 {
		t.Fatalf("test setup: uncorrected p = %v, want < 0.05", c.P)
	}
	if c.Verdict != Pass || rep.Verdict != Pass {
		t.Fatalf("C00 %s (p %.3f, Holm %.3f), overall %s; want PASS after Holm", c.Verdict, c.P, c.PAdj, rep.Verdict)
	}
}

func TestGateExactMetricsAndMissing(t *testing.T) {
	flat := []float64{100, 100, 100, 100, 100}
	old := build("old", 2, map[string]map[string][]float64{
		"Allocs/threads=1": {"ns/op": flat, "allocs/op": {0, 0, 0, 0, 0}},
		"Instr/threads=1":  {"ns/op": flat, "instructions/op": {1000, 1000, 1000, 1000, 1000}},
		"Less/threads=1":   {"ns/op": flat, "instructions/op": {1000, 1000, 1000, 1000, 1000}},
		"Gone/threads=1":   {"ns/op": flat},
	})
	new := build("new", 2, map[string]map[string][]float64{
		"Allocs/threads=1": {"ns/op": flat, "allocs/op": {1, 1, 1, 1, 1}},
		"Instr/threads=1":  {"ns/op": flat, "instructions/op": {1020, 1020, 1020, 1020, 1020}},
		"Less/threads=1":   {"ns/op": flat, "instructions/op": {980, 980, 980, 980, 980}},
	})
	rep, _ := Gate(old, new, DefaultThresholds)
	for _, tc := range []struct{ name, unit string }{{"Allocs/threads=1", "allocs/op"}, {"Instr/threads=1", "instructions/op"}, {"Gone/threads=1", "ns/op"}} {
		if got := verdictOf(t, rep, tc.name, tc.unit); got.Verdict != Regression {
			t.Errorf("%s %s: %s, want REGRESSION", tc.name, tc.unit, got.Verdict)
		}
	}
	if got := verdictOf(t, rep, "Less/threads=1", "instructions/op"); got.Verdict != Improved {
		t.Errorf("2%% fewer instructions: %s, want IMPROVED", got.Verdict)
	}
	th := DefaultThresholds
	th.AllowMissing = true
	rep, _ = Gate(old, new, th)
	if got := verdictOf(t, rep, "Gone/threads=1", "ns/op"); got.Verdict != NotGated {
		t.Errorf("missing with -allow-missing: %s", got.Verdict)
	}
	if _, err := Gate(old, build("x", 2, map[string]map[string][]float64{"Other": ns(flat)}), DefaultThresholds); err == nil {
		t.Error("sets sharing no benchmark were gated")
	}
}

func arms(r *rand.Rand, n int, head, base2, rel float64) Arms {
	var a Arms
	for range n {
		drift := 1 + 0.2*(r.Float64()*2-1) // the machine drifts; pairs share it
		b := 100 * drift
		a.Base = append(a.Base, b*(1+rel*(r.Float64()*2-1)))
		a.Head = append(a.Head, b*head*(1+rel*(r.Float64()*2-1)))
		a.Base2 = append(a.Base2, b*base2*(1+rel*(r.Float64()*2-1)))
	}
	return a
}

func TestGatePairedVerdicts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cells := map[string]Arms{
		"Same/threads=1":  arms(r, 12, 1.00, 1.00, 0.01),
		"Slow/threads=1":  arms(r, 12, 1.15, 1.00, 0.01),
		"Fast/threads=1":  arms(r, 12, 0.85, 1.00, 0.01),
		"AAOff/threads=1": arms(r, 12, 1.15, 1.10, 0.01),
		"Few/threads=1":   arms(r, 2, 1.50, 1.00, 0.01),
		"Over/threads=3":  arms(r, 12, 1.50, 1.00, 0.01),
	}
	names := cellsOf("Same/threads=1", "Slow/threads=1", "Fast/threads=1", "AAOff/threads=1", "Few/threads=1", "Over/threads=3")
	rep := GatePaired(names, cells, 2, DefaultThresholds)
	for name, want := range map[string]Verdict{
		"Same/threads=1": Pass, "Slow/threads=1": Regression, "Fast/threads=1": Improved,
		"AAOff/threads=1": Inconclusive, "Few/threads=1": Inconclusive, "Over/threads=3": NotGated,
	} {
		if got := verdictOf(t, rep, name, "ns/op"); got.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", name, got.Verdict, got.Reason, want)
		}
	}
	if got := rep.Flagged(); len(got) != 1 || got[0] != "Slow/threads=1" {
		t.Errorf("Flagged = %v", got)
	}
	slow := verdictOf(t, rep, "Slow/threads=1", "ns/op")
	if math.Abs(slow.Ratio-1.15) > 0.02 || slow.Lo > slow.Ratio || slow.Hi < slow.Ratio {
		t.Errorf("Slow ratio %.3f [%.3f, %.3f], want about 1.15 inside its bounds", slow.Ratio, slow.Lo, slow.Hi)
	}
}

// TestGatePairedNoiseFloor: a 10% slowdown on a machine whose A/A arm
// shows 4% is under the 3x floor (12%) and passes.
func TestGatePairedNoiseFloor(t *testing.T) {
	a := Arms{}
	for i := range 12 {
		b := 100 + float64(i%3)
		a.Base = append(a.Base, b)
		a.Head = append(a.Head, b*1.10*(1+0.001*float64(i%2)))
		a.Base2 = append(a.Base2, b*[]float64{1.04, 1.03, 1.05}[i%3])
	}
	th := DefaultThresholds
	th.Alpha = 1e-12 // keep the A/A t-test from calling it INCONCLUSIVE
	rep := GatePaired(cellsOf("N/threads=1"), map[string]Arms{"N/threads=1": a}, 2, th)
	c := rep.Cells[0]
	if c.Noise < 0.035 || c.Noise > 0.045 {
		t.Fatalf("noise floor %.3f, want about 0.04", c.Noise)
	}
	th.Alpha = 0.05
	rep = GatePaired(cellsOf("N/threads=1"), map[string]Arms{"N/threads=1": a}, 2, th)
	if c := rep.Cells[0]; c.Verdict == Regression {
		t.Fatalf("10%% slowdown under a 12%% floor: %s (%s)", c.Verdict, c.Reason)
	}
}

func TestHolm(t *testing.T) {
	got := holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("holm = %v, want %v", got, want)
		}
	}
}

func TestSpeedups(t *testing.T) {
	s := build("x", 2, map[string]map[string][]float64{
		"Issuer/impl=fast/threads=1": ns([]float64{9, 10, 11}),
		"Issuer/impl=slow/threads=1": ns([]float64{18, 20, 22}),
	})
	sp := Speedups(s, results.Tidy("ns/op"))
	if len(sp) != 1 || sp[0].Fast != "fast" || sp[0].Slow != "slow" || sp[0].Cell != "Issuer/threads=1" {
		t.Fatalf("Speedups = %+v", sp)
	}
	want := 2 * math.Hypot(1.0/10, 2.0/20)
	if sp[0].Ratio != 2 || math.Abs(sp[0].Err-want) > 1e-9 {
		t.Fatalf("ratio %v ± %v, want 2 ± %v", sp[0].Ratio, sp[0].Err, want)
	}
	if !strings.Contains(sp[0].String(), "fast ran 2.00 ± 0.28 times faster than slow") {
		t.Fatalf("%s", sp[0])
	}
}

func TestConfirm(t *testing.T) {
	first := &Report{Cells: []CellVerdict{
		{Name: "A", Verdict: Regression, Reason: "slow"},
		{Name: "B", Verdict: Regression, Reason: "slow"},
		{Name: "C", Verdict: Improved},
	}}
	first.finish()
	first.Confirm(&Report{Cells: []CellVerdict{{Name: "A", Verdict: Regression, Reason: "again"}, {Name: "B", Verdict: Pass, Reason: "fine"}}})
	if first.Cells[0].Verdict != Regression || first.Cells[1].Verdict != Pass || first.Verdict != Regression {
		t.Fatalf("%+v", first)
	}
	first.Confirm(&Report{Cells: []CellVerdict{{Name: "A", Verdict: Inconclusive}}})
	if first.Cells[0].Verdict != Pass || first.Verdict != Improved {
		t.Fatalf("after an unconfirmed re-run: %+v", first)
	}
}
