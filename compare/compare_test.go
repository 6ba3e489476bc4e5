package compare

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	moremath "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// build makes a set from name -> unit -> values (one record per value
// index, as rounds), names in sorted order, on a machine of cores cores.
func build(label string, cores int, cells map[string]map[string][]float64) *records.Set {
	s := records.New(label, label+".txt")
	config := []benchfmt.Config{{Key: "cores", Value: []byte(strconv.Itoa(cores)), File: true}}
	for _, name := range slices.Sorted(maps.Keys(cells)) {
		units := slices.Sorted(maps.Keys(cells[name]))
		for i := 0; ; i++ {
			rec := &benchfmt.Result{Config: config, Name: benchfmt.Name(name), Iters: 1}
			for _, u := range units {
				if i < len(cells[name][u]) {
					rec.Values = append(rec.Values, records.Value(cells[name][u][i], u))
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
func cellsOf(names ...string) []*records.Cell {
	m := make(map[string]map[string][]float64)
	for _, n := range names {
		m[n] = ns([]float64{1})
	}
	s := build("cells", 2, m)
	var out []*records.Cell
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
	unit = records.Tidy(unit)
	for _, c := range rep.Cells {
		if c.Name == name && c.Unit == unit {
			return c
		}
	}
	t.Fatalf("no verdict for %s %s in %+v", name, unit, rep.Cells)
	return CellVerdict{}
}

// consistent checks that every verdict agrees with the interval it shows:
// PASS below the threshold, REGRESSION above it, INCONCLUSIVE across it.
func consistent(t *testing.T, rep *Report) {
	t.Helper()
	edge := 1 + rep.Threshold
	for _, c := range rep.Cells {
		if c.Lo == 0 || c.Hi == 0 || c.Unit != DefaultThresholds.Metric {
			continue
		}
		switch c.Verdict {
		case Pass:
			if c.Hi >= edge {
				t.Errorf("%s: PASS with upper bound %.4f", c.Name, c.Hi)
			}
		case Regression:
			if c.Lo <= edge {
				t.Errorf("%s: REGRESSION with lower bound %.4f", c.Name, c.Lo)
			}
		case Inconclusive:
			if !(c.Lo <= edge && c.Hi >= edge) && !(c.Lo <= 1/edge && c.Hi >= 1/edge) && c.Vetoed != VetoAA {
				t.Errorf("%s: INCONCLUSIVE showing [%.4f, %.4f], which spans no threshold", c.Name, c.Lo, c.Hi)
			}
		}
	}
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
	consistent(t, rep)
	if tiny := verdictOf(t, rep, "Tiny/threads=1", "ns/op"); !strings.Contains(tiny.Reason, "any slowdown is below the 5% threshold") || tiny.Hi > 1.05 {
		t.Errorf("a sure 2%% change should pass as below the threshold: %s", tiny.Reason)
	}
}

// TestGateInconclusiveWithFewRounds: two rounds a side are too few to
// trust a spread; the cell is INCONCLUSIVE however large the change looks,
// never PASS.
func TestGateInconclusiveWithFewRounds(t *testing.T) {
	old := build("old", 2, map[string]map[string][]float64{"A/threads=1": ns([]float64{100, 101})})
	for _, v := range []float64{100, 300} {
		new := build("new", 2, map[string]map[string][]float64{"A/threads=1": ns([]float64{v, v + 1})})
		rep, _ := Gate(old, new, DefaultThresholds)
		if rep.Verdict != Inconclusive || !strings.Contains(rep.Cells[0].Reason, "needs at least 3") {
			t.Fatalf("1 round each at %v: %s (%s), want INCONCLUSIVE", v, rep.Verdict, rep.Cells[0].Reason)
		}
	}
}

// TestGateDefaultRoundsSeeRegression is the case the gate exists for, at
// the rounds perfrun run writes by default: every cell of a real baseline
// three times slower must be a REGRESSION, not PASS: a U-test at 5
// against 5 rounds cannot get below p = 0.008, which Holm over the gated
// cells would put above 0.05.
func TestGateDefaultRoundsSeeRegression(t *testing.T) {
	data, err := os.ReadFile("../docs/testdata/baseline.txt") // the main job's baseline, a default run
	if err != nil {
		t.Fatal(err)
	}
	old, err := records.Read(bytes.NewReader(data), "baseline.txt", "baseline")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := old.Write(&b); err != nil {
		t.Fatal(err)
	}
	// The designs' cells three times slower; the machine's reference
	// cells (control, floor) as they were.
	new, err := records.Read(strings.NewReader(scaled(b.String(), "BenchmarkIssuer/", 3, "ns/op")), "slow.txt", "slow")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	gated := 0
	for _, c := range timedCells(rep) {
		gated++
		if c.Verdict != Regression {
			t.Errorf("%s ×3: %s (%s)", c.Name, c.Verdict, c.Reason)
		}
	}
	if gated != 8 || rep.Verdict != Regression {
		t.Fatalf("%d gated cells, overall %s; want 8 and REGRESSION", gated, rep.Verdict)
	}
	// The same baseline against itself cannot regress.
	same, _ := Gate(old, old, DefaultThresholds)
	if same.Verdict == Regression {
		t.Fatalf("baseline against itself: %s", same.Verdict)
	}
	// Everything three times slower, the control too, is the machine's
	// doing: no cell is a REGRESSION, and each says the machine moved.
	machine, err := records.Read(strings.NewReader(scaled(b.String(), "Benchmark", 3, "ns/op")), "slow-machine.txt", "slow-machine")
	if err != nil {
		t.Fatal(err)
	}
	rep, err = Gate(old, machine, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cells {
		if c.Unit == DefaultThresholds.Metric && c.Verdict != NotGated &&
			(c.Verdict != Inconclusive || c.Vetoed != VetoMachine) {
			t.Errorf("%s, machine ×3: %s (%s)", c.Name, c.Verdict, c.Reason)
		}
	}
}

// scaled multiplies the values of the units on the result lines that
// start with prefix by f.
func scaled(text, prefix string, f float64, units ...string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		fields := strings.Fields(l)
		for j := 3; j < len(fields); j++ {
			if slices.Contains(units, fields[j]) {
				v, _ := strconv.ParseFloat(fields[j-1], 64)
				fields[j-1] = strconv.FormatFloat(f*v, 'g', -1, 64)
			}
		}
		lines[i] = strings.Join(fields, " ")
	}
	return strings.Join(lines, "\n")
}

// TestDecideHolm: one cell of twenty whose regression test alone is
// significant is what an uncorrected gate alarms on by chance; Holm does
// not, and that cell is INCONCLUSIVE, not PASS.
func TestDecideHolm(t *testing.T) {
	tau := math.Log(1.05)
	suspect := tEstimate{mean: tau + 2.6*0.01, se: 0.01, df: 18, n: 10} // one-sided p about 0.009
	if p := suspect.pAbove(tau); p > 0.01 || p < 0.005 {
		t.Fatalf("test setup: p = %v", p)
	}
	alone := intervalVerdicts([]*CellVerdict{{}}, []estimate{suspect}, 0.05, 0.05)
	if alone[0] != Regression {
		t.Fatalf("alone: %q, want REGRESSION", alone[0])
	}
	ests := []estimate{suspect}
	cells := []*CellVerdict{{}}
	for range 19 {
		ests = append(ests, tEstimate{mean: 0, se: 0.01, df: 18, n: 10})
		cells = append(cells, &CellVerdict{})
	}
	got := intervalVerdicts(cells, ests, 0.05, 0.05)
	if got[0] != "" {
		t.Fatalf("among twenty: %q (%s), want undecided", got[0], cells[0].Reason)
	}
	for i, v := range got[1:] {
		if v != Pass {
			t.Fatalf("cell %d with no change: %q (%s)", i+1, v, cells[i+1].Reason)
		}
	}
}

// TestGateConfigMismatch: files of different machines are refused unless
// the key is ignored; concatenated runs of one machine are pooled with a
// note.
func TestGateConfigMismatch(t *testing.T) {
	file := func(cores int, extra string) *records.Set {
		var b strings.Builder
		fmt.Fprintf(&b, "cores: %d\n%s", cores, extra)
		for i := range 5 {
			fmt.Fprintf(&b, "BenchmarkA/threads=1 1 %d ns/op\n", 100+i)
		}
		s, err := records.Read(strings.NewReader(b.String()), fmt.Sprintf("c%d.txt", cores), "x")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if _, err := Gate(file(2, ""), file(64, ""), DefaultThresholds); err == nil || !strings.Contains(err.Error(), "differ in cores") {
		t.Fatalf("2 against 64 cores: %v", err)
	}
	th := DefaultThresholds
	th.IgnoreConfig = []string{"cores"}
	if _, err := Gate(file(2, ""), file(64, ""), th); err != nil {
		t.Fatalf("with -ignore-config cores: %v", err)
	}
	mixed, _ := records.Read(strings.NewReader("go: go1.25\nBenchmarkA/threads=1 1 100 ns/op\ngo: go1.26\nBenchmarkA/threads=1 1 101 ns/op\n"), "cat.txt", "cat")
	if _, err := Gate(mixed, mixed, DefaultThresholds); err == nil || !strings.Contains(err.Error(), "mixes results with different go") {
		t.Fatalf("concatenated Go versions: %v", err)
	}
	pooled, _ := records.Read(strings.NewReader("date: 1\nBenchmarkA/threads=1 1 100 ns/op\ndate: 2\nBenchmarkA/threads=1 1 101 ns/op\n"), "pool.txt", "pool")
	rep, err := Gate(pooled, pooled, DefaultThresholds)
	if err != nil || len(rep.Warnings) == 0 {
		t.Fatalf("pooled runs: %v, warnings %v", err, rep.Warnings)
	}
	// A machine label is compared whether one file or both carry it: no
	// label beside a label is two machines, in one file or across two.
	labelled, unlabelled := file(2, "machine: other-box\n"), file(2, "")
	if _, err := Gate(unlabelled, labelled, DefaultThresholds); err == nil || !strings.Contains(err.Error(), "differ in machine") {
		t.Errorf("an unlabelled run against machine: other-box: %v", err)
	}
	cat, _ := records.Read(strings.NewReader("BenchmarkA/threads=1 1 100 ns/op\nmachine: other-box\nBenchmarkA/threads=1 1 101 ns/op\n"), "cat.txt", "cat")
	if _, err := Gate(cat, unlabelled, DefaultThresholds); err == nil || !strings.Contains(err.Error(), "mixes results with different machine") {
		t.Errorf("an unlabelled run concatenated with machine: other-box: %v", err)
	}
	if _, err := Gate(labelled, file(2, "machine: other-box\n"), DefaultThresholds); err != nil {
		t.Errorf("two runs of one labelled machine: %v", err)
	}
}

// TestOneMeasurement: a file and a copy of it are one measurement, which
// the gate command refuses; two runs with one value apart are two.
func TestOneMeasurement(t *testing.T) {
	read := func(text string) *records.Set {
		s, err := records.Read(strings.NewReader(text), "f.txt", "f")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := "BenchmarkA/threads=1 1 100 ns/op\nBenchmarkA/threads=1 1 101 ns/op\n"
	if !OneMeasurement(read(a), read(a)) {
		t.Error("a file and its copy are not one measurement")
	}
	if OneMeasurement(read(a), read("BenchmarkA/threads=1 1 100 ns/op\nBenchmarkA/threads=1 1 102 ns/op\n")) {
		t.Error("two runs are one measurement")
	}
}

// TestGateMissingUnitFailsClosed: a NEW file in another unit (benchstat
// writes us/op; sec/op tidies to the same unit, us/op does not) has no
// sec/op: that is a failure, not a PASS with nothing gated.
func TestGateMissingUnitFailsClosed(t *testing.T) {
	old := build("old", 2, map[string]map[string][]float64{"A/threads=1": ns([]float64{100, 101, 102, 100, 101})})
	new := build("new", 2, map[string]map[string][]float64{"A/threads=1": {"us/op": {5, 5, 5, 5, 5}}, "B/threads=1": ns([]float64{1, 1})})
	rep, _ := Gate(old, new, DefaultThresholds)
	if rep.Verdict != Missing || !strings.Contains(verdictOf(t, rep, "A/threads=1", "ns/op").Reason, "has no sec/op") {
		t.Fatalf("%s: %+v", rep.Verdict, rep.Cells)
	}
	if c := verdictOf(t, rep, "B/threads=1", "ns/op"); c.Verdict != NotGated || !strings.Contains(c.Reason, "new in") {
		t.Fatalf("a cell only NEW has: %+v", c)
	}
	th := DefaultThresholds
	th.AllowMissing = true
	if rep, _ := Gate(old, new, th); rep.Verdict == Regression || rep.Verdict == Missing {
		t.Fatalf("-allow-missing: %s", rep.Verdict)
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
	for _, tc := range []struct {
		name, unit string
		want       Verdict
	}{{"Allocs/threads=1", "allocs/op", Regression}, {"Instr/threads=1", "instructions/op", Regression}, {"Gone/threads=1", "ns/op", Missing}} {
		if got := verdictOf(t, rep, tc.name, tc.unit); got.Verdict != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.name, tc.unit, got.Verdict, tc.want)
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
	for id := range n {
		drift := 1 + 0.2*(r.Float64()*2-1) // the machine drifts; pairs share it
		b := 100 * drift
		a.Add(ArmBase, id, b*(1+rel*(r.Float64()*2-1)))
		a.Add(ArmHead, id, b*head*(1+rel*(r.Float64()*2-1)))
		a.Add(ArmBase2, id, b*base2*(1+rel*(r.Float64()*2-1)))
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
		"Edge/threads=1":  arms(r, 12, 1.05, 1.00, 0.01),
		"Few/threads=1":   arms(r, 2, 1.50, 1.00, 0.01),
		"Over/threads=3":  arms(r, 12, 1.50, 1.00, 0.01),
	}
	names := cellsOf("Same/threads=1", "Slow/threads=1", "Fast/threads=1", "AAOff/threads=1", "Edge/threads=1", "Few/threads=1", "Over/threads=3")
	rep := GatePaired(names, cells, 2, DefaultThresholds)
	for name, want := range map[string]Verdict{
		"Same/threads=1": Pass, "Slow/threads=1": Regression, "Fast/threads=1": Improved,
		"AAOff/threads=1": Inconclusive, "Edge/threads=1": Inconclusive, "Few/threads=1": Inconclusive, "Over/threads=3": NotGated,
	} {
		if got := verdictOf(t, rep, name, "ns/op"); got.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", name, got.Verdict, got.Reason, want)
		}
	}
	consistent(t, rep)
	if got := rep.Undecided(); !slices.Equal(got, []string{"Edge/threads=1", "Few/threads=1"}) {
		t.Errorf("Undecided = %v; the A/A failure must not be re-run", got)
	}
	slow := verdictOf(t, rep, "Slow/threads=1", "ns/op")
	if math.Abs(slow.Ratio-1.15) > 0.02 || slow.Lo > slow.Ratio || slow.Hi < slow.Ratio {
		t.Errorf("Slow ratio %.3f [%.3f, %.3f], want about 1.15 inside its bounds", slow.Ratio, slow.Lo, slow.Hi)
	}
}

// TestGatePairedNeverPassesWhatItCannotRuleOut: three rounds of a head
// 85% slower with wide noise, whose lower bound clears no noise floor,
// are no PASS: a lower bound above the threshold is a REGRESSION, and an
// interval that spans it is INCONCLUSIVE.
func TestGatePairedNeverPassesWhatItCannotRuleOut(t *testing.T) {
	var a Arms
	for id, f := range []float64{1.40, 2.3, 1.9} {
		a.Add(ArmBase, id, 100)
		a.Add(ArmHead, id, 100*f)
		a.Add(ArmBase2, id, []float64{90, 112, 100}[id])
	}
	rep := GatePaired(cellsOf("S/threads=1"), map[string]Arms{"S/threads=1": a}, 2, DefaultThresholds)
	if v := rep.Cells[0].Verdict; v == Pass {
		t.Fatalf("+85%% in three noisy rounds: PASS (%s)", rep.Cells[0].Reason)
	}
}

// TestGateInstructionsAsSample: counts that vary between processes are
// a sample: five a side are gated by the shared rule at the instructions
// threshold, fewer are INCONCLUSIVE; constant counts stay exact.
func TestGateInstructionsAsSample(t *testing.T) {
	flat := []float64{100, 100, 100, 100, 100}
	seeded := []float64{810, 812, 811, 809, 813}
	old := build("old", 2, map[string]map[string][]float64{
		"Same/threads=1": {"ns/op": flat, "instructions/op": seeded},
		"More/threads=1": {"ns/op": flat, "instructions/op": seeded},
		"Few/threads=1":  {"ns/op": flat[:3], "instructions/op": seeded[:3]},
	})
	up := make([]float64, 5)
	for i, v := range seeded {
		up[i] = v * 1.03
	}
	new := build("new", 2, map[string]map[string][]float64{
		"Same/threads=1": {"ns/op": flat, "instructions/op": {811, 810, 813, 812, 809}},
		"More/threads=1": {"ns/op": flat, "instructions/op": up},
		"Few/threads=1":  {"ns/op": flat[:3], "instructions/op": up[:3]},
	})
	rep, _ := Gate(old, new, DefaultThresholds)
	for name, want := range map[string]Verdict{"Same/threads=1": Pass, "More/threads=1": Regression, "Few/threads=1": Inconclusive} {
		if c := verdictOf(t, rep, name, "instructions/op"); c.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", name, c.Verdict, c.Reason, want)
		}
	}
	// Counts within 0.05% of each other are one exact count: three
	// processes a side are enough, and 1% more fails the exact limit.
	fixed := []float64{294.0645, 294.0645, 294.0692}
	old = build("old", 2, map[string]map[string][]float64{"Fixed/threads=1": {"ns/op": flat[:3], "instructions/op": fixed}})
	new = build("new", 2, map[string]map[string][]float64{"Fixed/threads=1": {"ns/op": flat[:3], "instructions/op": {297.1, 297.1, 297.1}}})
	rep, _ = Gate(old, new, DefaultThresholds)
	if c := verdictOf(t, rep, "Fixed/threads=1", "instructions/op"); c.Verdict != Regression || !strings.Contains(c.Reason, "exceeds the limit") {
		t.Errorf("near-exact counts 1%% up: %s (%s), want an exact REGRESSION", c.Verdict, c.Reason)
	}
}

// TestGatePairedMissingFailsClosed: a cell head no longer measures (its
// arm never ran) is MISSING, a failure (exit 1); one only head measures
// is new and not gated.
func TestGatePairedMissingFailsClosed(t *testing.T) {
	var gone, added Arms
	for id := range 6 {
		gone.Add(ArmBase, id, 100)
		gone.Add(ArmBase2, id, 100)
		added.Add(ArmHead, id, 100)
	}
	cells := cellsOf("Gone/threads=1", "Added/threads=1")
	rep := GatePaired(cells, map[string]Arms{"Gone/threads=1": gone, "Added/threads=1": added}, 2, DefaultThresholds)
	if c := verdictOf(t, rep, "Gone/threads=1", "ns/op"); c.Verdict != Missing {
		t.Errorf("removed cell: %s (%s)", c.Verdict, c.Reason)
	}
	if c := verdictOf(t, rep, "Added/threads=1", "ns/op"); c.Verdict != NotGated {
		t.Errorf("added cell: %s (%s)", c.Verdict, c.Reason)
	}
	if rep.Verdict != Missing || rep.Verdict.Exit() != 1 {
		t.Errorf("overall %s (exit %d)", rep.Verdict, rep.Verdict.Exit())
	}
}

func TestPocockLevel(t *testing.T) {
	// Pocock's two-look one-sided boundary at 0.05 is z = 1.875.
	// Pocock's one-sided constants at alpha 0.05 (Jennison and Turnbull,
	// Group Sequential Methods, table 2.1 at two-sided 0.10).
	for looks, c := range map[int]float64{2: 1.875, 3: 1.992, 4: 2.067, 5: 2.122} {
		if got, want := PocockLevel(0.05, looks), 1-moremath.StdNormal.CDF(c); math.Abs(got-want) > 3e-4 {
			t.Errorf("PocockLevel(0.05, %d) = %.4f, want %.4f", looks, got, want)
		}
	}
	if PocockLevel(0.05, 1) != 0.05 {
		t.Fatal("one look must spend all of alpha")
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
	sp := Speedups(s, records.Tidy("ns/op"))
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

// TestGateQuarantinedIsNoVerdict: a cell whose rounds the machine
// disturbed is INCONCLUSIVE with the reason, never a verdict on the store,
// and the control cells are not gated.
func TestGateQuarantinedIsNoVerdict(t *testing.T) {
	old := build("old", 2, map[string]map[string][]float64{
		"Issuer/impl=rcu/threads=2": ns([]float64{100, 101, 99, 100, 100}),
		"Control/threads=1":         ns([]float64{40, 40, 40, 40, 40}),
		"Control/threads=2":         ns([]float64{20, 20, 20, 20, 20}),
	})
	new := build("new", 2, map[string]map[string][]float64{
		"Issuer/impl=rcu/threads=2": ns([]float64{180, 182}),
		"Control/threads=1":         ns([]float64{40, 40, 40, 40, 40}),
		"Control/threads=2":         ns([]float64{33, 33, 33, 33, 33}),
	})
	nc, _ := new.Cell("Issuer/impl=rcu/threads=2")
	nc.Aside, nc.Why = 3, "the machine delivered 1.21 of 2 cores to the control"
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cells {
		if strings.HasPrefix(c.Name, "Control/") {
			t.Errorf("control cell gated: %+v", c)
		}
	}
	c := verdictOf(t, rep, "Issuer/impl=rcu/threads=2", "sec/op")
	if c.Verdict != Inconclusive || !strings.Contains(c.Reason, "the machine disturbed them") {
		t.Fatalf("verdict %s (%s), want INCONCLUSIVE because the machine did not deliver", c.Verdict, c.Reason)
	}
}

// TestSequentialLooks: cells a look leaves undecided get fresh rounds,
// numbered after the earlier looks', up to Max looks; Next can stop the
// looks early (a time budget), which leaves them INCONCLUSIVE.
func TestSequentialLooks(t *testing.T) {
	all := cellsOf("Sim/cell=clear/threads=1", "Sim/cell=noisy/threads=1")
	run := func(next func(int, []string) bool) (firsts [][2]int, rep *Report) {
		r := rand.New(rand.NewPCG(3, 4))
		measure := func(only []string, first int) ([]*records.Cell, map[string]Arms, int, error) {
			arms := make(map[string]Arms)
			var out []*records.Cell
			for _, c := range all {
				if only != nil && !slices.Contains(only, c.Name) {
					continue
				}
				out = append(out, c)
				spread := 0.005
				if strings.Contains(c.Name, "noisy") {
					spread = 0.3 // wide enough that no look of 10 rounds decides it
				}
				a := arms[c.Name]
				for id := first; id < first+10; id++ {
					a.Add(ArmBase, id, 100*math.Exp(r.NormFloat64()*spread))
					a.Add(ArmHead, id, 100*math.Exp(r.NormFloat64()*spread))
					a.Add(ArmBase2, id, 100*math.Exp(r.NormFloat64()*spread))
				}
				arms[c.Name] = a
			}
			firsts = append(firsts, [2]int{first, len(out)})
			return out, arms, 2, nil
		}
		rep, err := Sequential(DefaultThresholds, Looks{Rounds: 10, Max: 3, Next: next}, measure)
		if err != nil {
			t.Fatal(err)
		}
		return firsts, rep
	}
	firsts, rep := run(nil)
	if want := [][2]int{{0, 2}, {10, 1}, {20, 1}}; !slices.Equal(firsts, want) {
		t.Errorf("looks measured (first round id, cells) %v, want %v", firsts, want)
	}
	if v := verdictOf(t, rep, "Sim/cell=clear/threads=1", "sec/op"); v.Verdict != Pass {
		t.Errorf("the clear cell: %s (%s)", v.Verdict, v.Reason)
	}
	firsts, rep = run(func(look int, undecided []string) bool { return false })
	if len(firsts) != 1 {
		t.Errorf("a budget that fits no second look: %d looks measured", len(firsts))
	}
	if v := verdictOf(t, rep, "Sim/cell=noisy/threads=1", "sec/op"); v.Verdict != Inconclusive || v.NeedRounds == 0 && !strings.Contains(v.Reason, "spans") {
		t.Errorf("the noisy cell after one look: %s (%s)", v.Verdict, v.Reason)
	}
}

// TestSequentialLeavesWhatTheMachineSetAside: a cell of which a look kept
// no complete round — an arm of every round set aside, as beside a
// neighbour that holds a core — is not measured again, and says so; a cell the
// machine disturbed only in part gets its next look, at ab's defaults
// (10 rounds a look, 3 looks).
func TestSequentialLeavesWhatTheMachineSetAside(t *testing.T) {
	all := cellsOf("Sim/cell=lost/threads=2", "Sim/cell=partly/threads=2", "Sim/cell=noisy/threads=1")
	r := rand.New(rand.NewPCG(5, 6))
	var looks [][]string
	measure := func(only []string, first int) ([]*records.Cell, map[string]Arms, int, error) {
		arms := make(map[string]Arms)
		var out, names = []*records.Cell(nil), []string(nil)
		for _, c := range all {
			if only != nil && !slices.Contains(only, c.Name) {
				continue
			}
			out, names = append(out, c), append(names, c.Name)
			a := arms[c.Name]
			for id := first; id < first+10; id++ {
				v := func() float64 { return 100 * math.Exp(r.NormFloat64()*0.3) }
				switch {
				case strings.Contains(c.Name, "lost"):
					// One arm of every round set aside: no round complete.
					a.Add(ArmHead, id, v())
					if id%2 == 0 {
						a.Add(ArmBase, id, v())
					} else {
						a.Add(ArmBase2, id, v())
					}
					a.Aside++
				case strings.Contains(c.Name, "partly") && id%2 == 0:
					a.Add(ArmBase, id, v())
					a.Add(ArmBase2, id, v())
					a.Aside++
				default:
					a.Add(ArmBase, id, v())
					a.Add(ArmHead, id, v())
					a.Add(ArmBase2, id, v())
				}
			}
			a.Why = "a worker waited for a CPU more than 25% of the window"
			arms[c.Name] = a
		}
		looks = append(looks, names)
		return out, arms, 2, nil
	}
	rep, err := Sequential(DefaultThresholds, Looks{Rounds: 10, Max: 3}, measure)
	if err != nil {
		t.Fatal(err)
	}
	for k, names := range looks[1:] {
		if slices.Contains(names, "Sim/cell=lost/threads=2") {
			t.Errorf("look %d measured the cell the first look kept no round of: %v", k+2, names)
		}
		if !slices.Contains(names, "Sim/cell=partly/threads=2") {
			t.Errorf("look %d left out the cell disturbed only in part: %v", k+2, names)
		}
	}
	if len(looks) != 3 {
		t.Errorf("%d looks, want 3 (the noisy and the partly disturbed cell stay undecided)", len(looks))
	}
	v := verdictOf(t, rep, "Sim/cell=lost/threads=2", "sec/op")
	if v.Verdict != Inconclusive || !strings.Contains(v.Reason, "not measured again: batch 1 of rounds kept no complete round") {
		t.Errorf("the lost cell: %s (%s)", v.Verdict, v.Reason)
	}
}

// TestPassIsIntersectionUnion: eight cells whose own PASS test holds at
// alpha but not at alpha/8 all PASS — the overall PASS needs every cell's
// PASS, so no correction for the number of cells is owed (Holm applies to
// REGRESSION and IMPROVED only).
func TestPassIsIntersectionUnion(t *testing.T) {
	var cells []*CellVerdict
	var ests []estimate
	for range 8 {
		cells = append(cells, &CellVerdict{})
		// log ratios centred at +2%: their upper bound sits just under
		// the 5% threshold at alpha 0.05, above it at 0.05/8.
		ests = append(ests, tEstimate{mean: math.Log(1.02), se: 0.014, df: 9, n: 10})
	}
	if p := ests[0].pBelow(math.Log(1.05)); !(p < 0.05 && p > 0.05/8) {
		t.Fatalf("the test's estimate: PASS p = %.4f, want it between alpha/8 and alpha", p)
	}
	for i, v := range intervalVerdicts(cells, ests, 0.05, 0.05) {
		if v != Pass {
			t.Errorf("cell %d: %q (%s), want PASS", i, v, cells[i].Reason)
		}
	}
}

// TestGateAllSetAsideIsInconclusive: a cell NEW measured and then set
// aside whole is not missing from NEW: INCONCLUSIVE, never REGRESSION (it
// was, exit 1), on the time unit and on the exact ones alike.
func TestGateAllSetAsideIsInconclusive(t *testing.T) {
	values := map[string][]float64{"ns/op": {100, 101, 99, 100, 100}, "allocs/op": {0, 0, 0, 0, 0}}
	old := build("old", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=2": values})
	new := records.New("new", "new.txt")
	for range 5 {
		new.Add(&benchfmt.Result{
			Config: []benchfmt.Config{{Key: "cores", Value: []byte("2"), File: true},
				{Key: records.QuarantineKey, Value: []byte("the host took a core away"), File: true}},
			Name: benchfmt.Name("Issuer/impl=rcu/threads=2"), Iters: 1,
			Values: []benchfmt.Value{records.Value(100, "ns/op"), records.Value(0, "allocs/op")},
		})
	}
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Inconclusive {
		t.Errorf("overall %s, want INCONCLUSIVE", rep.Verdict)
	}
	for _, c := range rep.Cells {
		if c.Verdict != Inconclusive || !strings.Contains(c.Reason, "set all 5 samples aside") {
			t.Errorf("%s %s: %s (%s), want INCONCLUSIVE naming the samples set aside", c.Name, c.Unit, c.Verdict, c.Reason)
		}
	}
	// The same in an interleaved A/B: head's samples all set aside.
	var a Arms
	for id := range 6 {
		a.Add(ArmBase, id, 100)
		a.Add(ArmBase2, id, 100)
	}
	a.Aside, a.Why = 6, "the host took a core away"
	prep := GatePaired(cellsOf("Issuer/impl=rcu/threads=2"), map[string]Arms{"Issuer/impl=rcu/threads=2": a}, 2, DefaultThresholds)
	if prep.Verdict != Inconclusive {
		t.Errorf("paired, head all set aside: %s, want INCONCLUSIVE", prep.Verdict)
	}
}

// TestGateNothingGatedIsInconclusive: a gate that could judge no cell —
// all oversubscribed, or only the machine's reference cells — has not seen
// that nothing slowed: INCONCLUSIVE (it said PASS, exit 0).
func TestGateNothingGatedIsInconclusive(t *testing.T) {
	vals := ns([]float64{100, 101, 99, 100, 100})
	// Files sharing only reference cells are refused outright (Shared).
	ref := map[string]map[string][]float64{"Control/threads=1": vals, "Floor/threads=1": vals}
	if _, err := Gate(build("old", 2, ref), build("new", 2, ref), DefaultThresholds); err == nil {
		t.Error("only reference cells: gated without error")
	}
	for name, cells := range map[string]map[string]map[string][]float64{
		"oversubscribed": {"Issuer/impl=rcu/threads=8": vals, "Issuer/impl=sorted/threads=4": vals},
	} {
		rep, err := Gate(build("old", 2, cells), build("new", 2, cells), DefaultThresholds)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Inconclusive || len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[len(rep.Warnings)-1], "nothing was gated") {
			t.Errorf("%s: %s %q, want INCONCLUSIVE saying nothing was gated", name, rep.Verdict, rep.Warnings)
		}
	}
	var a Arms
	for id := range 6 {
		a.Add(ArmBase, id, 100)
		a.Add(ArmHead, id, 100)
		a.Add(ArmBase2, id, 100)
	}
	rep := GatePaired(cellsOf("Issuer/impl=rcu/threads=4"), map[string]Arms{"Issuer/impl=rcu/threads=4": a}, 2, DefaultThresholds)
	if rep.Verdict != Inconclusive {
		t.Errorf("paired, all oversubscribed: %s, want INCONCLUSIVE", rep.Verdict)
	}
}

// TestGateSubsetAgainstFull: gating a run of fewer cells against a full
// one fails the gated cells it left out — naming -allow-missing — and
// never the oversubscribed ones, which no gate judges (they were listed
// as REGRESSION ... missing).
func TestGateSubsetAgainstFull(t *testing.T) {
	vals := ns([]float64{100, 101, 99, 100, 100})
	old := build("full", 2, map[string]map[string][]float64{
		"Issuer/impl=rcu/threads=1": vals, "Issuer/impl=rcu/threads=2": vals, "Issuer/impl=rcu/threads=4": vals})
	new := build("subset", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=1": vals})
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	if c := verdictOf(t, rep, "Issuer/impl=rcu/threads=4", "sec/op"); c.Verdict != NotGated {
		t.Errorf("oversubscribed cell left out: %s (%s), want NOT-GATED", c.Verdict, c.Reason)
	}
	if c := verdictOf(t, rep, "Issuer/impl=rcu/threads=2", "sec/op"); c.Verdict != Missing || !strings.Contains(c.Reason, "-allow-missing") {
		t.Errorf("gated cell left out: %s (%s), want MISSING naming -allow-missing", c.Verdict, c.Reason)
	}
}

// TestGateRefusesOtherWindows: results of a 500 ms and a 200 ms window are
// different setups, refused unless -ignore-config window.
func TestGateRefusesOtherWindows(t *testing.T) {
	file := func(window string) *records.Set {
		s, err := records.Read(strings.NewReader("cores: 2\nwindow: "+window+"\nBenchmarkA/threads=1 1 100 ns/op\n"), window, window)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if _, err := Gate(file("500ms"), file("200ms"), DefaultThresholds); err == nil || !strings.Contains(err.Error(), "-ignore-config window") {
		t.Errorf("windows 500ms and 200ms: %v, want a refusal naming -ignore-config window", err)
	}
	th := DefaultThresholds
	th.IgnoreConfig = []string{"window"}
	if _, err := Gate(file("500ms"), file("200ms"), th); err != nil {
		t.Errorf("with -ignore-config window: %v", err)
	}
}

// TestSharedOnlyReferenceCells: two files whose only common cells are the
// machine's (different corpora name every design's cell differently)
// compare nothing: refused, naming the corpora (compare said exit 0).
func TestSharedOnlyReferenceCells(t *testing.T) {
	file := func(corpus, certs string) *records.Set {
		s, err := records.Read(strings.NewReader("cores: 2\ncorpus: "+corpus+"\nBenchmarkIssuer/impl=rcu/certs="+certs+"/threads=1 1 100 ns/op\nBenchmarkControl/threads=1 1 40 ns/op\n"), corpus, corpus)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	_, err := Shared(file("a.pem", "10"), file("b.pem", "20"))
	if err == nil || !strings.Contains(err.Error(), "only the machine's reference cells") || !strings.Contains(err.Error(), "a.pem vs b.pem") {
		t.Errorf("only Control shared: %v", err)
	}
}

// TestWriteCompareAsBenchstat: an interval that cannot be had is "± ∞"
// with benchstat's footnote, a unit zero everywhere is one line, not a
// table, and each unit has a geomean of the designs' rows.
func TestWriteCompareAsBenchstat(t *testing.T) {
	mk := func(label string, f float64) *records.Set {
		return build(label, 2, map[string]map[string][]float64{
			"Issuer/impl=a/threads=1": {"ns/op": {100 * f, 101 * f, 99 * f, 100.5 * f, 99.5 * f}, "allocs/op": {0, 0, 0, 0, 0}},
			"Issuer/impl=b/threads=1": {"ns/op": {50 * f, 51 * f, 49 * f, 50.5 * f, 49.5 * f}, "allocs/op": {0, 0, 0, 0, 0}},
		})
	}
	old, new := mk("old", 1), mk("new", 1.1)
	rows, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteCompare(&b, old, new, rows)
	out := b.String()
	for _, want := range []string{"± ∞ ¹", "¹ need >= 6 samples", "geomean", "+10.00%", "allocs/op: 0 in every benchmark of both"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "allocs/op  ") {
		t.Errorf("an all-zero unit has a table:\n%s", out)
	}
}

// TestGateNeedsTime: with -allow-missing, a NEW whose times are in another
// unit (or missing) leaves only allocs/op to compare; that PASSed, exit 0.
// A gate that judged no time has not seen that nothing slowed.
func TestGateNeedsTime(t *testing.T) {
	zeros := []float64{0, 0, 0, 0, 0}
	old := build("old", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=1": {"ns/op": {100, 101, 99, 100, 100}, "allocs/op": zeros}})
	new := build("new", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=1": {"ns/call": {100, 101, 99, 100, 100}, "allocs/op": zeros}})
	th := DefaultThresholds
	th.AllowMissing = true
	rep, err := Gate(old, new, th)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Inconclusive || !strings.Contains(strings.Join(rep.Warnings, "\n"), "nothing was gated on time") {
		t.Errorf("allocs/op alone: %s %q, want INCONCLUSIVE, nothing gated on time", rep.Verdict, rep.Warnings)
	}
	// Cells added later (ab's counts) finish the report again: it still
	// says so once.
	rep.Add(CellVerdict{Name: "Issuer/impl=rcu/threads=1", Unit: "instructions/op", Verdict: Pass})
	if n := strings.Count(strings.Join(rep.Warnings, "\n"), "nothing was gated on time"); n != 1 {
		t.Errorf("said %d times: %q", n, rep.Warnings)
	}
}

// TestGateCopiedRoundsAreOne: one round copied five times is one round,
// not five independent ones (it PASSed as five), and the gate says so.
func TestGateCopiedRoundsAreOne(t *testing.T) {
	round := func(v ...float64) map[string][]float64 {
		return map[string][]float64{"ns/op": v, "ns/call": v, "ops/s": v}
	}
	old := build("old", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=1": round(100, 101, 99, 100, 100.5)})
	new := build("new", 2, map[string]map[string][]float64{"Issuer/impl=rcu/threads=1": round(100.2, 100.2, 100.2, 100.2, 100.2)})
	rep, err := Gate(old, new, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	c := verdictOf(t, rep, "Issuer/impl=rcu/threads=1", "ns/op")
	if c.Verdict != Inconclusive || !strings.Contains(strings.Join(rep.Warnings, "\n"), "4 records repeat an earlier record") {
		t.Errorf("five copies of one round: %s (%s), warnings %q; want INCONCLUSIVE on one round, said so", c.Verdict, c.Reason, rep.Warnings)
	}
}

// TestGateCountsOnly: two files of counts alone (two callgrind imports)
// are gated on the counts: identical ones PASS (they could never), more
// instructions fail.
func TestGateCountsOnly(t *testing.T) {
	counts := func(v float64) map[string]map[string][]float64 {
		return map[string]map[string][]float64{"ls__": {"instructions/op": {v}}}
	}
	for _, tc := range []struct {
		new  float64
		want Verdict
	}{{572696, Pass}, {572696 * 1.05, Regression}} {
		rep, err := Gate(build("old", 2, counts(572696)), build("new", 2, counts(tc.new)), DefaultThresholds)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != tc.want {
			t.Errorf("%v -> %v instructions: %s %+v, want %s", 572696, tc.new, rep.Verdict, rep.Cells, tc.want)
		}
	}
}
