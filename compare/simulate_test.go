package compare

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/records"
)

// The defaults of ab that the operating characteristic is computed at.
const (
	ocInner  = 2  // -inner
	ocLooks  = 3  // -looks
	ocRounds = 10 // -rounds
)

var updateOC = flag.Bool("update", false, "rewrite testdata/operating-characteristic.md")

// simulate runs one ab campaign through the decision code the CLI runs
// (Sequential): cells[i] of class classes[i], head truly ratios[i] × base.
// It returns the report.
//
// fixed is ab's -layouts: 0 simulates a fresh code layout for every arm of
// every round (the default), K > 0 K fixed layouts a revision, drawn once
// per campaign and rotated over the rounds as ab rotated them.
func simulate(r *rand.Rand, models map[class]noise, classes []class, ratios []float64, th Thresholds, fixed ...int) *Report {
	names := make([]string, len(classes))
	for i := range names {
		names[i] = fmt.Sprintf("Sim/cell=%d/threads=1", i)
	}
	all := cellsOf(names...)
	k := 0
	if len(fixed) > 0 {
		k = fixed[0]
	}
	layouts := make([][2][]float64, len(classes)) // per cell: base's and head's layout effects
	for i := range layouts {
		for side := range 2 {
			for range k {
				layouts[i][side] = append(layouts[i][side], r.NormFloat64()*models[classes[i]].layout)
			}
		}
	}
	measure := func(only []string, first int) ([]*records.Cell, map[string]Arms, int, error) {
		arms := make(map[string]Arms)
		var out []*records.Cell
		for i, c := range all {
			if only != nil && !slices.Contains(only, c.Name) {
				continue
			}
			out = append(out, c)
			m := models[classes[i]]
			a := arms[c.Name]
			for id := first; id < first+ocRounds; id++ {
				if k == 0 {
					a.Add(ArmBase, id, m.armValue(r, 100))
					a.Add(ArmHead, id, m.armValue(r, 100*ratios[i]))
					a.Add(ArmBase2, id, m.armValue(r, 100))
					continue
				}
				b, h := layouts[i][0], layouts[i][1]
				a.Add(ArmBase, id, m.armValueOf(r, 100, b[id%k]))
				a.Add(ArmHead, id, m.armValueOf(r, 100*ratios[i], h[id%k]))
				a.Add(ArmBase2, id, m.armValueOf(r, 100, b[(id+1)%k]))
			}
			arms[c.Name] = a
		}
		return out, arms, 2, nil
	}
	rep, _ := Sequential(th, Looks{Rounds: ocRounds, Max: ocLooks}, measure)
	return rep
}

// suite are the classes of ab's default cells: four designs at 1 and 2
// threads, one of them lock-free.
var suite = []class{oneThread, oneThread, oneThread, oneThread, twoLocked, twoLocked, twoLocked, twoLockFre}

type ocRow struct {
	ratio  float64
	counts map[Verdict]int
}

// characteristic simulates campaigns of the default suite's eight cells in
// which one cell of class c truly changes by each ratio, and counts that
// cell's verdicts.
func characteristic(seed uint64, models map[class]noise, c class, th Thresholds, campaigns int, ratios []float64) []ocRow {
	r := rand.New(rand.NewPCG(seed, 0x0c))
	classes := append([]class{c}, suite[1:]...)
	var rows []ocRow
	for _, ratio := range ratios {
		row := ocRow{ratio, make(map[Verdict]int)}
		truth := make([]float64, len(classes))
		for i := range truth {
			truth[i] = 1
		}
		truth[0] = ratio
		for range campaigns {
			row.counts[simulate(r, models, classes, truth, th).Cells[0].Verdict]++
		}
		rows = append(rows, row)
	}
	return rows
}

// TestOperatingCharacteristic fits the noise model to the A/A campaigns of
// results/archive/campaigns (internal/recorded/testdata/aa-campaigns.tar.bz2), then drives ab's decision rule at its defaults (10
// rounds a look, up to 3 looks at Pocock's level, 2 windows per arm and
// round, Holm across cells for REGRESSION and IMPROVED, each cell's PASS at
// alpha) with synthetic arms from it. It checks the targets a CI owner
// relies on and writes the fitted model and the tables to
// testdata/operating-characteristic.md when run with -args -update (the committed file must match what this test
// computes).
func TestOperatingCharacteristic(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates thousands of campaigns")
	}
	needs.NoRace(t, "one goroutine simulating thousands of campaigns")
	campaigns := 1000
	if v := os.Getenv("PERFRUN_OC_CAMPAIGNS"); v != "" {
		fmt.Sscan(v, &campaigns)
	}
	real, err := readCampaigns(campaignsDir)
	if err != nil {
		t.Fatal(err)
	}
	models := fitNoise(real, ocInner)
	layout := fitLayout(real)
	for _, c := range []class{oneThread, twoLocked, twoLockFre} {
		m, ok := models[c]
		if !ok {
			t.Fatalf("no windows of class %q in the campaigns", c)
		}
		m.layout = min(layout[c], m.process)
		models[c] = m
	}
	var b strings.Builder
	writeOCModels(&b, len(real), models, campaigns)
	oc := simulateOC(&b, models, DefaultThresholds, campaigns)
	table := b.String()
	t.Log("\n" + table)
	const path = "testdata/operating-characteristic.md"
	if *updateOC {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if committed, err := os.ReadFile(path); err != nil || string(committed) != table {
		t.Errorf("%s does not match the simulation (%v); rerun with -args -update and commit it", path, err)
	}
	oc.check(t, DefaultThresholds)
}

// writeOCModels writes the characteristic's opening: the noise model
// fitted to n A/A campaigns, class by class, and what is simulated.
func writeOCModels(b *strings.Builder, n int, models map[class]noise, campaigns int) {
	b.WriteString("# ab's operating characteristic, simulated from this machine's noise\n\n")
	fmt.Fprintf(b, "The noise model is fitted to the %d A/A campaigns of `results/archive/campaigns/` (`perfrun ab main main`\n", n)
	b.WriteString("at its defaults, paired at the window, on this project's 2-core VM), per class of cell. A window's\n")
	b.WriteString("log value is what its triple shared (cancels) + its arm process's effect + its own effect, and a\n")
	b.WriteString("fraction of windows ran slower than the windows they were paired with (resampled from those seen).\n")
	b.WriteString("Made by `go test ./compare -run OperatingCharacteristic -args -update`; the campaigns' windows\n")
	b.WriteString("are in `internal/recorded/testdata/aa-campaigns.tar.bz2`.\n\n")
	b.WriteString("Those campaigns linked 3 code layouts a revision and rotated them over the rounds, so every\n")
	b.WriteString("layout ran in several processes: the layout component is the variance of the arm processes' effects\n")
	b.WriteString("between layouts beyond what the processes of one layout explain (one-way random effects, per\n")
	b.WriteString("campaign and cell, pooled per class); it is part of the process sd.\n\n")
	b.WriteString("| class | process sd | of it, layout sd | window sd | slow windows | their slowdown (median) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range []class{oneThread, twoLocked, twoLockFre} {
		m := models[c]
		fmt.Fprintf(b, "| %s | %.2f%% | %.2f%% | %.2f%% | %.1f%% | %s |\n", c, 100*m.process, 100*m.layout, 100*m.window, 100*m.tail, medianSlow(m.slow))
	}
	fmt.Fprintf(b, "\n%d simulated campaigns per row, each of the default suite's 8 cells (4 at 1 thread, 3 lock-based\n", campaigns)
	b.WriteString("and 1 lock-free at 2 threads), one of them truly `ratio` × base; the verdict is that cell's: 10\n")
	b.WriteString("rounds a look, cells left undecided measured again, up to 3 looks, threshold 5%, a fresh code layout\n")
	b.WriteString("for every arm of every round (`-layouts fresh`).\n")
}

// An ocResult is what the simulation found: each class's verdicts by
// true change, unchanged code's overall verdicts, and how often identical
// code's intervals exclude no change with fresh and fixed layouts.
type ocResult struct {
	campaigns    int
	results      map[class][]ocRow
	overall      map[Verdict]int
	fresh, fixed coverage
}

// simulateOC simulates the campaigns and writes their tables to b.
func simulateOC(b *strings.Builder, models map[class]noise, th Thresholds, campaigns int) ocResult {
	oc := ocResult{campaigns: campaigns, results: make(map[class][]ocRow), overall: make(map[Verdict]int)}
	row := func(row ocRow) {
		p := func(v Verdict) string { return fmt.Sprintf("%.1f%%", 100*float64(row.counts[v])/float64(campaigns)) }
		fmt.Fprintf(b, "| %+.1f%% | %s | %s | %s | %s |\n", 100*(row.ratio-1), p(Pass), p(Inconclusive), p(Regression), p(Improved))
	}
	for i, c := range []class{oneThread, twoLocked, twoLockFre} {
		rows := characteristic(uint64(i+1), models, c, th, campaigns, []float64{0.90, 1.00, 1.02, 1.05, 1.075, 1.10, 1.15, 1.20})
		oc.results[c] = rows
		fmt.Fprintf(b, "\n## one cell of class %s\n\n| true change | PASS | INCONCLUSIVE | REGRESSION | IMPROVED |\n|---:|---:|---:|---:|---:|\n", c)
		for _, r := range rows {
			row(r)
		}
	}
	// Unchanged code, the whole verdict.
	r := rand.New(rand.NewPCG(9, 0xaa))
	same := make([]float64, len(suite))
	for i := range same {
		same[i] = 1
	}
	for range campaigns {
		oc.overall[simulate(r, models, suite, same, th).Verdict]++
	}
	fmt.Fprintf(b, "\n## unchanged code, the overall verdict of the 8 cells\n\nPASS %.1f%%, INCONCLUSIVE %.1f%%, REGRESSION %.1f%%, IMPROVED %.1f%%.\n",
		oc.pct(Pass), oc.pct(Inconclusive), oc.pct(Regression), oc.pct(Improved))
	tight := th
	tight.MinEffect = 0.02
	b.WriteString("\n## what time alone decides at -threshold 2%, one cell of class 1 thread\n\n")
	b.WriteString("(instructions/op decides such a cell exactly where counts agree: see the README)\n\n")
	b.WriteString("| true change | PASS | INCONCLUSIVE | REGRESSION | IMPROVED |\n|---:|---:|---:|---:|---:|\n")
	for _, r := range characteristic(4, models, oneThread, tight, campaigns, []float64{1.00, 1.01, 1.03, 1.05}) {
		row(r)
	}
	oc.fresh, oc.fixed = layoutCoverage(9, models, th, campaigns, 0), layoutCoverage(9, models, th, campaigns, 3)
	b.WriteString("\n## unchanged code: cell intervals that exclude no change\n\n")
	b.WriteString("A PASS's interval holds each side at alpha (a 90% interval), so about 10% of them may exclude\n")
	b.WriteString("zero by chance. With 3 fixed layouts a revision (the design before `-layouts fresh`) the head's\n")
	b.WriteString("layouts stay the same round after round, and their luck reads as a change:\n\n")
	b.WriteString("| layouts | intervals excluding zero | overall PASS |\n|---|---:|---:|\n")
	fmt.Fprintf(b, "| fresh for every arm and round | %.1f%% | %.1f%% |\n", 100*oc.fresh.excluding, 100*oc.fresh.pass)
	fmt.Fprintf(b, "| 3 fixed a revision | %.1f%% | %.1f%% |\n", 100*oc.fixed.excluding, 100*oc.fixed.pass)
	return oc
}

// pct is the share of unchanged code's campaigns whose overall verdict
// was v, in percent.
func (oc ocResult) pct(v Verdict) float64 {
	return 100 * float64(oc.overall[v]) / float64(oc.campaigns)
}

// check holds the simulation to the targets a CI owner relies on.
func (oc ocResult) check(t *testing.T, th Thresholds) {
	rate := func(c class, ratio float64, v Verdict) float64 {
		for _, row := range oc.results[c] {
			if row.ratio == ratio {
				return float64(row.counts[v]) / float64(oc.campaigns)
			}
		}
		t.Fatalf("no row %v in %s", ratio, c)
		return 0
	}
	if got := oc.pct(Regression); got > 1 {
		t.Errorf("unchanged code: overall REGRESSION %.1f%%, want <= 1%%", got)
	}
	if got := oc.pct(Pass); got < 80 {
		t.Errorf("unchanged code: overall PASS %.1f%%, want >= 80%%", got)
	}
	for _, c := range []class{oneThread, twoLocked, twoLockFre} {
		if got := rate(c, 1.20, Regression); got < 0.95 {
			t.Errorf("%s: +20%% flagged %.1f%%, want >= 95%%", c, 100*got)
		}
		// A slowdown at the threshold must not be called equivalent more
		// often than alpha allows (Monte Carlo error aside).
		if got := rate(c, 1.05, Pass); got > th.Alpha+0.02 {
			t.Errorf("%s: +5%% (the threshold) called PASS %.1f%%, want <= %.0f%%", c, 100*got, 100*th.Alpha)
		}
		for _, ratio := range []float64{1.00, 1.02} {
			if got := rate(c, ratio, Regression); got > 0.01 {
				t.Errorf("%s: %+.0f%% (below the threshold) called REGRESSION %.1f%%", c, 100*(ratio-1), 100*got)
			}
		}
	}
	// Layout is a random effect: fresh layouts keep intervals of
	// identical code at their level, and fixed ones do not.
	if oc.fresh.excluding > 0.15 {
		t.Errorf("fresh layouts: %.1f%% of identical code's intervals exclude zero, want <= 15%%", 100*oc.fresh.excluding)
	}
	if oc.fixed.excluding < oc.fresh.excluding+0.05 {
		t.Errorf("3 fixed layouts: %.1f%% of intervals exclude zero against %.1f%% with fresh ones: the simulation does not see what fixed layouts do", 100*oc.fixed.excluding, 100*oc.fresh.excluding)
	}
	if got := rate(oneThread, 1.10, Regression); got < 0.95 {
		t.Errorf("1 thread: +10%% flagged %.1f%%, want >= 95%%", 100*got)
	}
}

// medianSlow formats the median slowdown of the slow windows.
func medianSlow(slow []float64) string {
	if len(slow) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.2f×", records.Median(slow))
}

// coverage is what identical code's campaigns gave: the share of gated
// cell intervals that exclude no change, and of overall PASS verdicts.
type coverage struct{ excluding, pass float64 }

// layoutCoverage simulates campaigns of identical code over the default
// suite with fixed layouts a revision (0: fresh ones).
func layoutCoverage(seed uint64, models map[class]noise, th Thresholds, campaigns, fixed int) coverage {
	r := rand.New(rand.NewPCG(seed, 0x1a))
	same := make([]float64, len(suite))
	for i := range same {
		same[i] = 1
	}
	var cells, excluding, pass int
	for range campaigns {
		rep := simulate(r, models, suite, same, th, fixed)
		if rep.Verdict == Pass {
			pass++
		}
		for _, c := range rep.Cells {
			if c.Lo == 0 || c.Hi == 0 {
				continue
			}
			cells++
			if c.Lo > 1 || c.Hi < 1 {
				excluding++
			}
		}
	}
	return coverage{float64(excluding) / float64(max(cells, 1)), float64(pass) / float64(campaigns)}
}
