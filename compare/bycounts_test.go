package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

func TestTrafficVerdict(t *testing.T) {
	th := Thresholds{InstructionsRatio: 0.05}
	for _, c := range []struct {
		what     string
		old, new []float64
		want     Verdict
	}{
		{"a few misses a process's addresses move", []float64{13.50, 13.52}, []float64{13.49, 13.53}, Pass},
		{"a cold read on a tenth of the lookups", []float64{0.500, 0.501}, []float64{0.600, 0.601}, Regression},
		{"a system call on a tenth of the lookups", []float64{0, 0}, []float64{0.1, 0.1}, Regression},
		{"one call in a thousand operations, below the floor", []float64{0}, []float64{0.001}, Pass},
		{"half the misses", []float64{10, 10.1}, []float64{5, 5.1}, Improved},
		{"processes that straddle the limit", []float64{1.00}, []float64{1.00, 1.20}, Inconclusive},
		{"no count of head", []float64{1}, nil, Inconclusive},
	} {
		if got := TrafficVerdict("c", records.LLMisses, c.old, c.new, th); got.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.what, got.Verdict, got.Reason, c.want)
		}
	}
	if got := TrafficVerdict("c", records.Syscalls, []float64{0}, []float64{0.1}, th); got.RatioText() != "—" {
		t.Errorf("0 -> 0.1 system calls an op shows the ratio %s, want —", got.RatioText())
	}
}

// report is a gate's report of one design at 1 and 2 threads whose time
// could not decide, with count verdicts of the units given.
func report(counts map[string]Verdict) *Report {
	r := &Report{Threshold: 0.05}
	for _, th := range []string{"1", "2"} {
		r.Cells = append(r.Cells, CellVerdict{Name: "Issuer/impl=x/threads=" + th, Unit: "sec/op", Verdict: Inconclusive, Reason: "+1% [-8%, +10%]: spans the 5% threshold", Layout: 0.12, Ratio: 1.01, Lo: 0.92, Hi: 1.10, Rounds: 10, undecided: true})
	}
	for unit, v := range counts {
		r.Cells = append(r.Cells, CellVerdict{Name: "Issuer/impl=x/threads=1", Unit: unit, Verdict: v})
	}
	r.finish()
	return r
}

var need = []string{records.Instructions, records.LLMisses, "predicted-sec/call@16threads"}

// TestPassByCounts: time that could not decide is a PASS where every
// count it needs is there and PASSes, and says so; a count missing, or
// one that moved, leaves time's verdict.
func TestPassByCounts(t *testing.T) {
	all := map[string]Verdict{records.Instructions: Pass, records.LLMisses: Pass, "predicted-sec/call@16threads": Pass, records.SharedLocks: NotGated}
	r := report(all)
	r.decideAtEvery(need)
	if r.Verdict != Pass {
		t.Fatalf("every count PASS: %s", r.Verdict)
	}
	for _, n := range []int{1, 2} {
		if c := r.timeAt(t, n); !c.ByCounts || r.decidedAt(n).By != ByCounts || !strings.Contains(c.Reason, "±12.0% a round") {
			t.Errorf("%s: %s %+v (%q)", c.Name, c.Verdict, r.decidedAt(n), c.Reason)
		}
	}
	for unit, v := range map[string]Verdict{records.LLMisses: Regression, "predicted-sec/call@16threads": Inconclusive} {
		moved := map[string]Verdict{}
		for u, w := range all {
			moved[u] = w
		}
		moved[unit] = v
		r := report(moved)
		r.decideAtEvery(need)
		if r.timeAt(t, 1).ByCounts || r.Verdict == Pass {
			t.Errorf("%s %s: %s, a PASS by counts", unit, v, r.Verdict)
		}
	}
	fewer := map[string]Verdict{records.Instructions: Improved, records.LLMisses: Pass, "predicted-sec/call@16threads": Pass}
	r = report(fewer)
	r.Cells[0].Ratio = 0.99 // time leaning the counts' way
	if r.decideAtEvery(need); r.timeAt(t, 1).Verdict != Improved || r.decidedAt(1).By != ByCounts || r.timeAt(t, 2).Verdict != Pass || r.Verdict != Improved {
		t.Errorf("fewer instructions: 1 thread %+v, 2 threads %s, overall %s; want IMPROVED by counts at 1 thread", r.decidedAt(1), r.timeAt(t, 2).Verdict, r.Verdict)
	}
	missing := report(map[string]Verdict{records.Instructions: Pass, records.LLMisses: Pass})
	if missing.decideAtEvery(need); missing.Verdict != Inconclusive {
		t.Errorf("without the prediction: %s, want time's INCONCLUSIVE", missing.Verdict)
	}
	timeFails := report(all)
	timeFails.Cells[1].Verdict = Regression
	if timeFails.decideAtEvery(need); timeFails.Verdict != Regression || timeFails.decidedAt(2).By != ByTime {
		t.Errorf("time's REGRESSION turned: %s", timeFails.Verdict)
	}
}

// TestSettledCellsAreNotMeasuredAgain: a cell whose counts decide it (all
// PASS, one better, or one worse) gets no further look; one they cannot
// decide does.
func TestSettledCellsAreNotMeasuredAgain(t *testing.T) {
	counts := []CellVerdict{
		{Name: "Issuer/impl=same/threads=1", Unit: records.Instructions, Verdict: Pass},
		{Name: "Issuer/impl=worse/threads=1", Unit: records.Instructions, Verdict: Regression},
		{Name: "Issuer/impl=better/threads=1", Unit: records.Instructions, Verdict: Improved},
	}
	undecided := []string{"Issuer/impl=same/threads=2", "Issuer/impl=worse/threads=1", "Issuer/impl=better/threads=1", "Issuer/impl=uncounted/threads=1"}
	rep := &Report{Threshold: 0.05}
	for _, name := range append(undecided, "Issuer/impl=past/threads=1") {
		rep.Cells = append(rep.Cells, CellVerdict{Name: name, Unit: "sec/op", Verdict: Inconclusive, Ratio: 0.99, Lo: 0.9, Hi: 1.1, Rounds: 10})
	}
	// Time whose centre is past the threshold (+8.2% [+3.4%, +13.2%]):
	// every count PASSes, and still only more rounds decide it.
	rep.Cells[len(rep.Cells)-1].Ratio, rep.Cells[len(rep.Cells)-1].Lo, rep.Cells[len(rep.Cells)-1].Hi = 1.082, 1.034, 1.132
	counts = append(counts, CellVerdict{Name: "Issuer/impl=past/threads=1", Unit: records.Instructions, Verdict: Pass})
	got := SettledByCounts(rep, append(undecided, "Issuer/impl=past/threads=1"), counts, []string{records.Instructions})
	if strings.Join(got, " ") != "Issuer/impl=same/threads=2 Issuer/impl=worse/threads=1 Issuer/impl=better/threads=1" {
		t.Errorf("settled %q", got)
	}
}

// decideAtEvery decides r at every count its cells speak of, with need
// the units a verdict by counts needs, nothing strict.
func (r *Report) decideAtEvery(need []string) {
	var at []int
	for _, c := range r.Cells {
		if n := witnessAt(c); n > 0 && !slices.Contains(at, n) {
			at = append(at, n)
		}
	}
	slices.Sort(at)
	r.Decide(Rules{At: at, Need: need})
}
