package compare

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"

	"github.com/perfrun/perfrun/harness/results"
)

// Thresholds configure the gate. Start from DefaultThresholds.
type Thresholds struct {
	// Alpha is the family-wise false-alarm rate across gated cells.
	Alpha float64
	// MinEffect is the smallest slowdown (or speedup) worth a verdict, as a
	// fraction: 0.05 is 5%.
	MinEffect float64
	// Metric is the timed unit the statistics gate on (lower is better).
	Metric string
	// AllocsDelta is how many more allocs/op fail the gate.
	AllocsDelta float64
	// InstructionsRatio is how much more instructions/op fail, as a fraction.
	InstructionsRatio float64
	// AllowMissing accepts benchmarks that OLD has and NEW lacks.
	AllowMissing bool
}

// DefaultThresholds are the gate's defaults.
var DefaultThresholds = Thresholds{
	Alpha: 0.05, MinEffect: 0.05, Metric: results.Tidy(results.NsPerOp),
	AllocsDelta: 0.5, InstructionsRatio: 0.01,
}

// exactMetrics gate on plain thresholds, without statistics.
var exactMetrics = []string{results.AllocsPerOp, results.Instructions}

// Gate decides between two results files measured separately. Cells whose
// threads exceed the machine's cores are reported NOT-GATED. A cell with
// too few rounds for the U-test to ever reach Alpha is INCONCLUSIVE.
func Gate(old, new *results.Set, th Thresholds) (*Report, error) {
	if _, err := Shared(old, new); err != nil {
		return nil, err
	}
	rep := &Report{Old: old.Label, New: new.Label}
	thr := benchmath.DefaultThresholds
	type pending struct {
		idx int
		p   float64
	}
	var tested []pending
	cores := max(old.Cores(), new.Cores())
	for _, oc := range old.Cells() {
		name := oc.Name
		nc, ok := new.Cell(name)
		if !ok {
			v := Regression
			if th.AllowMissing {
				v = NotGated
			}
			rep.Cells = append(rep.Cells, CellVerdict{Name: name, Unit: th.Metric, Verdict: v, Reason: "missing from " + new.Label})
			continue
		}
		if cores > 0 && oc.Threads > cores {
			rep.Cells = append(rep.Cells, CellVerdict{Name: name, Unit: th.Metric, Verdict: NotGated,
				Reason: fmt.Sprintf("oversubscribed: %d threads on %d cores", oc.Threads, cores)})
			continue
		}
		for _, unit := range exactMetrics {
			a, b := oc.Values[unit], nc.Values[unit]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			rep.Cells = append(rep.Cells, exactVerdict(name, unit, Median(a), Median(b), th))
		}
		a, b := oc.Values[th.Metric], nc.Values[th.Metric]
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		s1, s2 := benchmath.NewSample(clone(a), &thr), benchmath.NewSample(clone(b), &thr)
		cmp := Assumption.Compare(s1, s2)
		c := CellVerdict{Name: name, Unit: th.Metric, Ratio: Median(b) / Median(a), P: cmp.P}
		if minN := minSamples(th.Alpha); len(a) < minN || len(b) < minN {
			c.Verdict = Inconclusive
			c.Reason = fmt.Sprintf("%d and %d rounds: a U-test needs %d each to reach alpha %.2f", len(a), len(b), minN, th.Alpha)
			rep.Cells = append(rep.Cells, c)
			continue
		}
		rep.Cells = append(rep.Cells, c)
		tested = append(tested, pending{len(rep.Cells) - 1, cmp.P})
	}
	ps := make([]float64, len(tested))
	for i, t := range tested {
		ps[i] = t.p
	}
	for i, adj := range holm(ps) {
		c := &rep.Cells[tested[i].idx]
		c.PAdj = adj
		significant := adj < th.Alpha
		switch {
		case significant && c.Ratio > 1+th.MinEffect:
			c.Verdict, c.Reason = Regression, fmt.Sprintf("%.1f%% slower, p=%.3g after Holm over %d cells", 100*(c.Ratio-1), adj, len(ps))
		case significant && c.Ratio < 1/(1+th.MinEffect):
			c.Verdict, c.Reason = Improved, fmt.Sprintf("%.1f%% faster, p=%.3g after Holm", 100*(1-c.Ratio), adj)
		case significant:
			c.Verdict, c.Reason = Pass, fmt.Sprintf("changed %.1f%%, below the %.0f%% minimum effect", 100*(c.Ratio-1), 100*th.MinEffect)
		default:
			c.Verdict, c.Reason = Pass, fmt.Sprintf("no significant change (p=%.3g after Holm)", adj)
		}
	}
	rep.finish()
	return rep, nil
}

func exactVerdict(name, unit string, old, new float64, th Thresholds) CellVerdict {
	c := CellVerdict{Name: name, Unit: unit, Verdict: Pass, Ratio: ratio(new, old)}
	var limit float64
	if unit == results.AllocsPerOp {
		limit = old + th.AllocsDelta
	} else {
		limit = old * (1 + th.InstructionsRatio)
	}
	switch {
	case new > limit:
		c.Verdict, c.Reason = Regression, fmt.Sprintf("%.4g -> %.4g exceeds the limit %.4g", old, new, limit)
	case unit == results.AllocsPerOp && new < old-th.AllocsDelta, unit != results.AllocsPerOp && new < old*(1-th.InstructionsRatio):
		c.Verdict, c.Reason = Improved, fmt.Sprintf("%.4g -> %.4g", old, new)
	default:
		c.Reason = fmt.Sprintf("%.4g -> %.4g, within the limit", old, new)
	}
	return c
}

func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return a / b
}

// Median is the center benchstat reports for a sample.
func Median(v []float64) float64 { return results.Summarize(v).Median }

// minSamples is the smallest equal sample size at which a two-sided
// Mann-Whitney U test can reach alpha: with n each, the smallest p-value
// is 2/C(2n, n).
func minSamples(alpha float64) int {
	for n := 1; n < 50; n++ {
		if 2/binomial(2*n, n) < alpha {
			return n
		}
	}
	return 50
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
