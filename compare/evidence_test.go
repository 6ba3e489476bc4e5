package compare

import (
	"testing"

	"github.com/perfrun/perfrun/records"
)

// vetoedFaster is an A/B run of one design at 1 and 2 threads whose head
// is 20% faster in every round, and whose A/A arm (base against itself)
// moved 20% faster too: time is void, whichever way head moved.
func vetoedFaster() *Report {
	var cells []*records.Cell
	arms := make(map[string]Arms)
	for _, n := range []int{1, 2} {
		c := &records.Cell{Name: records.AtThreads("Issuer/impl=x/threads=1", n), Threads: n}
		cells = append(cells, c)
		var a Arms
		for round := range 10 {
			base := 1000 * (1 + 0.01*float64(round%3))
			a.Add(ArmBase, round, base)
			a.Add(ArmHead, round, 0.8*base*(1+0.002*float64(round%2)))
			a.Add(ArmBase2, round, 0.8*base)
		}
		arms[c.Name] = a
	}
	return GatePaired(cells, arms, 2, DefaultThresholds)
}

// TestAVetoedFasterTimeDecidesNothing: a head faster past the threshold
// whose A/A arm moved as much is INCONCLUSIVE in the cell, in the table's
// decision and overall (exit 3), with or without -strict, and with counts
// that say better too.
func TestAVetoedFasterTimeDecidesNothing(t *testing.T) {
	for _, strict := range []bool{false, true} {
		for _, counts := range [][]CellVerdict{nil, {{Unit: records.Instructions, Verdict: Improved, Ratio: 0.8}}} {
			r := vetoedFaster()
			for _, c := range counts {
				c.Name = r.Cells[0].Name
				r.Cells = append(r.Cells, c)
			}
			r.Decide(Rules{At: DefaultAtForTest, Cores: 2, Strict: strict, Need: []string{records.Instructions}})
			for i, n := range []int{1, 2} {
				c := r.Cells[i]
				if c.Vetoed != VetoAA || timeState(c, r.Threshold) != TimeVetoed {
					t.Fatalf("%d threads: %+.1f%% [%+.1f%%, %+.1f%%] veto %q: want the A/A arm's veto", n, 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1), c.Vetoed)
				}
				if dec := r.decisions[design(c.Name)][n]; c.Verdict != Inconclusive || dec.Verdict != Inconclusive {
					t.Errorf("strict %v, counts %d, %d threads: the cell %s, the table %s by %q: want INCONCLUSIVE in both", strict, len(counts), n, c.Verdict, dec.Verdict, dec.By)
				}
			}
			if r.Verdict != Inconclusive || r.Verdict.Exit() != 3 {
				t.Errorf("strict %v, counts %d: %s (exit %d), want INCONCLUSIVE (exit 3)", strict, len(counts), r.Verdict, r.Verdict.Exit())
			}
		}
	}
}

// TestPastTheCoresThePredictionWeighsTheCounts: one read lock traded for
// padded shards and a global atomic counter counts more atomics a call;
// past the cores the prediction, which weighs those atomics with the
// locks and lines, decides (IMPROVED), and the count does not outvote it.
// Within the cores the count still decides where it speaks.
func TestPastTheCoresThePredictionWeighsTheCounts(t *testing.T) {
	faster := CellVerdict{Verdict: Improved, Ratio: 0.5, Reason: "at 16 threads -50.0% a call"}
	at := func(string, int) (CellVerdict, bool) { return faster, true }
	atomics := CellVerdict{Unit: records.Atomics, Verdict: Regression, Ratio: 1.5}
	for _, declared := range [][]int{{16}, {1, 2, 16}} {
		r := &Report{Threshold: 0.05}
		t1, t2, a := passTime, passTime, atomics
		t1.Name, t1.Unit = "Issuer/impl=x/threads=1", "sec/op"
		t2.Name, t2.Unit = "Issuer/impl=x/threads=2", "sec/op"
		a.Name = t1.Name
		r.Cells = append(r.Cells, t1, t2, a, CellVerdict{Name: t1.Name, Unit: records.Instructions, Verdict: Pass, Ratio: 1})
		r.finish()
		r.Decide(Rules{At: declared, Cores: 2, Need: []string{records.Instructions}, PredictedAt: at})
		d := r.decisions[design(r.Cells[0].Name)]
		if dec := d[16]; dec.Verdict != Improved || dec.By != ByPrediction {
			t.Errorf("-at %v: 16 threads %s by %q, want IMPROVED by the prediction", declared, dec.Verdict, dec.By)
		}
		if len(declared) > 1 {
			if dec := d[2]; dec.Verdict != Regression || dec.By != ByCounted {
				t.Errorf("-at %v: 2 threads %s by %q, want the count's REGRESSION within the cores", declared, dec.Verdict, dec.By)
			}
		} else if r.Verdict != Improved {
			t.Errorf("-at 16: %s, want IMPROVED", r.Verdict)
		}
	}
}
