package compare

import (
	"fmt"
	"math"

	moremath "github.com/aclements/go-moremath/stats"
)

// estimate is one cell's change on the log scale: the mean of log(new/old)
// with its standard error and degrees of freedom. gate makes it from two
// independent files (Welch), ab from rounds paired by id.
type estimate struct {
	mean, se, df float64
	n            int // rounds behind it (the smaller side for Welch)
}

// pAbove is the one-sided p-value of H0: θ ≤ x against θ > x.
func (e estimate) pAbove(x float64) float64 {
	if e.se == 0 {
		if e.mean > x {
			return 0
		}
		return 1
	}
	return 1 - moremath.TDist{V: e.df}.CDF((e.mean-x)/e.se)
}

// pBelow is the one-sided p-value of H0: θ ≥ x against θ < x.
func (e estimate) pBelow(x float64) float64 {
	if e.se == 0 {
		if e.mean < x {
			return 0
		}
		return 1
	}
	return moremath.TDist{V: e.df}.CDF((e.mean - x) / e.se)
}

// bounds is the interval [lo, hi] whose each side holds at level 1-alpha:
// lo is a one-sided lower bound, hi an upper bound.
func (e estimate) bounds(alpha float64) (lo, hi float64) {
	if e.se == 0 {
		return e.mean, e.mean
	}
	t := moremath.InvCDF(moremath.TDist{V: e.df})(1 - alpha)
	return e.mean - t*e.se, e.mean + t*e.se
}

// decide gives each estimate its verdict at the threshold (a fraction:
// 0.05 is 5%), controlling the family-wise error of each kind of claim
// across the cells with Holm at level alpha:
//
//   - REGRESSION: the slowdown's lower bound is above the threshold;
//   - IMPROVED: the speedup's lower bound is beyond the threshold;
//   - PASS: the slowdown's upper bound is below the threshold, so no
//     regression as large as the threshold can have been missed;
//   - otherwise nil: the data cannot decide yet.
//
// It fills Ratio, Lo, Hi, P (of the regression test) and PAdj in cells.
func decide(cells []*CellVerdict, ests []estimate, threshold, alpha float64) []Verdict {
	tau := math.Log1p(threshold)
	reg, pass, imp := make([]float64, len(ests)), make([]float64, len(ests)), make([]float64, len(ests))
	for i, e := range ests {
		reg[i], pass[i], imp[i] = e.pAbove(tau), e.pBelow(tau), e.pBelow(-tau)
	}
	reg, pass, imp = holm(reg), holm(pass), holm(imp)
	out := make([]Verdict, len(ests))
	for i, e := range ests {
		c := cells[i]
		lo, hi := e.bounds(alpha)
		c.Ratio, c.Lo, c.Hi = math.Exp(e.mean), math.Exp(lo), math.Exp(hi)
		c.P, c.PAdj = e.pAbove(tau), reg[i]
		switch {
		case reg[i] < alpha:
			out[i] = Regression
			c.Reason = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]: at least %.1f%% slower, above the %.0f%% threshold (p=%.2g after Holm over %d cells)",
				pct(c.Ratio), pct(c.Lo), pct(c.Hi), pct(c.Lo), 100*threshold, reg[i], len(ests))
		case imp[i] < alpha:
			out[i] = Improved
			c.Reason = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]: at least %.1f%% faster than the %.0f%% threshold asks", pct(c.Ratio), pct(c.Lo), pct(c.Hi), -pct(c.Hi), 100*threshold)
		case pass[i] < alpha:
			out[i] = Pass
			c.Reason = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]: any slowdown is below the %.0f%% threshold", pct(c.Ratio), pct(c.Lo), pct(c.Hi), 100*threshold)
		default:
			c.Reason = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]: the interval spans the %.0f%% threshold", pct(c.Ratio), pct(c.Lo), pct(c.Hi), 100*threshold)
			if n := roundsToDecide(e, tau, alpha); n > e.n {
				c.Reason += fmt.Sprintf("; at this spread about %d rounds would decide", n)
			}
		}
	}
	return out
}

func pct(ratio float64) float64 { return 100 * (ratio - 1) }

// roundsToDecide estimates how many rounds would shrink the interval
// enough to clear the nearer edge (±threshold) at the present spread; 0 if
// the estimate sits on an edge.
func roundsToDecide(e estimate, tau, alpha float64) int {
	gap := min(math.Abs(e.mean-tau), math.Abs(e.mean+tau))
	if e.mean > -tau && e.mean < tau {
		gap = tau - math.Abs(e.mean)
	}
	lo, hi := e.bounds(alpha)
	half := (hi - lo) / 2
	if gap <= 0 || half <= 0 || e.n < 1 {
		return 0
	}
	n := float64(e.n) * (half / gap) * (half / gap)
	if n > 1e6 {
		return 0
	}
	return int(math.Ceil(n))
}
