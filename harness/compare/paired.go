package compare

import (
	"fmt"
	"math"

	moremath "github.com/aclements/go-moremath/stats"
	"github.com/montanaflynn/stats"

	"github.com/perfrun/perfrun/harness/results"
)

// Arms are one cell's values from an interleaved A/B run: round i of each
// arm ran in the same round, on the same machine, back to back (in a
// shuffled order). Base2 is the A/A arm, base measured a second time.
type Arms struct {
	Base, Head, Base2 []float64
}

// logRatios returns ln(b[i]/a[i]) for the rounds both have.
func logRatios(a, b []float64) []float64 {
	var out []float64
	for i := range min(len(a), len(b)) {
		if a[i] > 0 && b[i] > 0 {
			out = append(out, math.Log(b[i]/a[i]))
		}
	}
	return out
}

// tTest is a one-sample t-test of mean(x) = 0: mean, standard error,
// two-sided p, and the t quantile for a one-sided bound at 1-alpha.
func tTest(x []float64, alpha float64) (mean, se, p, tq float64) {
	n := float64(len(x))
	mean, _ = stats.Mean(x)
	sd, _ := stats.StandardDeviationSample(x)
	se = sd / math.Sqrt(n)
	t := moremath.TDist{V: n - 1}
	tq = moremath.InvCDF(t)(1 - alpha)
	if se == 0 {
		if mean == 0 {
			return mean, se, 1, tq
		}
		return mean, se, 0, tq
	}
	p = 2 * (1 - t.CDF(math.Abs(mean/se)))
	return mean, se, p, tq
}

// GatePaired decides an interleaved A/B run with an A/A arm. Per cell the
// statistic is the per-round log ratio head/base. Its noise floor is what
// the A/A arm (base against itself, interleaved the same way) measured:
// |mean A/A log ratio|, the difference this machine shows between two
// identical binaries. A cell regresses only when the
// Holm-corrected t-test is significant and the lower bound of the slowdown
// exceeds max(MinEffect, 3 × noise floor). If the A/A arm itself differs
// significantly, the cell is INCONCLUSIVE: the machine cannot tell a
// binary from itself, so no verdict can be trusted.
func GatePaired(cells []*results.Cell, arms map[string]Arms, cores int, th Thresholds) *Report {
	rep := &Report{Old: "base", New: "head"}
	type pending struct {
		idx          int
		p, pAA       float64
		mean, se, tq float64
	}
	var tested []pending
	for _, cell := range cells {
		a := arms[cell.Name]
		c := CellVerdict{Name: cell.Name, Unit: th.Metric}
		if cores > 0 && cell.Threads > cores {
			c.Verdict, c.Reason = NotGated, fmt.Sprintf("oversubscribed: %d threads on %d cores", cell.Threads, cores)
			rep.Cells = append(rep.Cells, c)
			continue
		}
		x, aa := logRatios(a.Base, a.Head), logRatios(a.Base, a.Base2)
		if len(x) < 3 || len(aa) < 3 {
			c.Verdict, c.Reason = Inconclusive, fmt.Sprintf("%d paired rounds: need at least 3", min(len(x), len(aa)))
			rep.Cells = append(rep.Cells, c)
			continue
		}
		mean, se, p, tq := tTest(x, th.Alpha)
		meanAA, _, pAA, _ := tTest(aa, th.Alpha)
		c.Ratio = math.Exp(mean)
		c.Lo, c.Hi = math.Exp(mean-tq*se), math.Exp(mean+tq*se)
		c.Noise = math.Exp(math.Abs(meanAA)) - 1
		c.P = p
		rep.Cells = append(rep.Cells, c)
		tested = append(tested, pending{len(rep.Cells) - 1, p, pAA, mean, se, tq})
	}
	ps, psAA := make([]float64, len(tested)), make([]float64, len(tested))
	for i, t := range tested {
		ps[i], psAA[i] = t.p, t.pAA
	}
	adj, adjAA := holm(ps), holm(psAA)
	for i, t := range tested {
		c := &rep.Cells[t.idx]
		c.PAdj = adj[i]
		floor := max(th.MinEffect, 3*c.Noise)
		slowLo, fastLo := c.Lo-1, 1-c.Hi
		switch {
		case adjAA[i] < th.Alpha:
			c.Verdict, c.Reason = Inconclusive, fmt.Sprintf("A/A differs (p=%.3g after Holm): base against itself moved %.1f%%", adjAA[i], 100*c.Noise)
		case adj[i] < th.Alpha && slowLo > floor:
			c.Verdict, c.Reason = Regression, fmt.Sprintf("at least %.1f%% slower (p=%.3g after Holm); floor %.1f%%", 100*slowLo, adj[i], 100*floor)
		case adj[i] < th.Alpha && fastLo > floor:
			c.Verdict, c.Reason = Improved, fmt.Sprintf("at least %.1f%% faster (p=%.3g after Holm)", 100*fastLo, adj[i])
		default:
			c.Verdict, c.Reason = Pass, fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%], floor %.1f%%", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1), 100*floor)
		}
	}
	rep.finish()
	return rep
}

// Flagged returns the names of cells whose verdict is REGRESSION.
func (r *Report) Flagged() []string {
	var out []string
	for _, c := range r.Cells {
		if c.Verdict == Regression {
			out = append(out, c.Name)
		}
	}
	return out
}

// Confirm keeps a REGRESSION only where the re-run's report (of the
// flagged cells, with fresh rounds) regresses too; the others pass, with
// both reasons kept. The overall verdict is recomputed.
func (r *Report) Confirm(rerun *Report) {
	byName := make(map[string]CellVerdict)
	for _, c := range rerun.Cells {
		byName[c.Name] = c
	}
	for i, c := range r.Cells {
		if c.Verdict != Regression {
			continue
		}
		if s := byName[c.Name]; s.Verdict != Regression {
			r.Cells[i].Verdict = Pass
			r.Cells[i].Reason = "flagged (" + c.Reason + "), not confirmed on re-run: " + s.Reason
		} else {
			r.Cells[i].Reason += "; confirmed on re-run: " + s.Reason
		}
	}
	r.finish()
}
