package compare

import (
	"fmt"
	"math"

	moremath "github.com/aclements/go-moremath/stats"
)

// estimate is one cell's change θ on the log scale, log(new/old), with
// the tests and confidence bounds intervalVerdicts needs. gate makes one from two
// independent files (tEstimate, Yuen's trimmed means or Welch's), ab from rounds
// paired by id (signedRank).
type estimate interface {
	center() float64
	rounds() int // rounds behind it (the smaller side of two samples)
	// pAbove is the one-sided p-value of H0: θ ≤ x against θ > x;
	// pBelow of H0: θ ≥ x against θ < x.
	pAbove(x float64) float64
	pBelow(x float64) float64
	// bounds is the interval [lo, hi] whose each side holds at level
	// 1-alpha; infinite where the rounds are too few for that level.
	bounds(alpha float64) (lo, hi float64)
}

// tEstimate is an estimate with a t distribution: a location difference,
// its standard error and degrees of freedom.
type tEstimate struct {
	mean, se, df float64
	n            int
}

func (e tEstimate) center() float64 { return e.mean }
func (e tEstimate) rounds() int     { return e.n }

func (e tEstimate) pAbove(x float64) float64 {
	if e.se == 0 {
		if e.mean > x {
			return 0
		}
		return 1
	}
	return 1 - moremath.TDist{V: e.df}.CDF((e.mean-x)/e.se)
}

func (e tEstimate) pBelow(x float64) float64 {
	if e.se == 0 {
		if e.mean < x {
			return 0
		}
		return 1
	}
	return moremath.TDist{V: e.df}.CDF((e.mean - x) / e.se)
}

func (e tEstimate) bounds(alpha float64) (lo, hi float64) {
	if e.se == 0 {
		return e.mean, e.mean
	}
	t := moremath.InvCDF(moremath.TDist{V: e.df})(1 - alpha)
	return e.mean - t*e.se, e.mean + t*e.se
}

// intervalVerdicts gives each estimate its verdict at the threshold (a fraction:
// 0.05 is 5%), at level alpha for each kind of claim:
//
//   - REGRESSION: the slowdown's lower bound is above the threshold;
//   - IMPROVED: the speedup's lower bound is beyond the threshold;
//   - PASS: the slowdown's upper bound is below the threshold, so no
//     regression as large as the threshold can have been missed;
//   - otherwise nil: the data cannot decide yet.
//
// REGRESSION and IMPROVED are union claims (some cell moved): Holm across
// the cells keeps the chance of any false one at alpha. The overall PASS
// is an intersection–union claim (Berger, 1982): it needs every cell's
// PASS, and if some cell truly regressed by the threshold, that cell's
// own test at alpha already bounds the chance of the overall PASS — so
// each cell's PASS is tested at alpha, with no correction for the number
// of cells.
//
// It fills Ratio, Lo, Hi, P (of the regression test) and PAdj in cells.
func intervalVerdicts(cells []*CellVerdict, ests []estimate, threshold, alpha float64) []Verdict {
	tau := math.Log1p(threshold)
	reg, pass, imp := make([]float64, len(ests)), make([]float64, len(ests)), make([]float64, len(ests))
	for i, e := range ests {
		reg[i], pass[i], imp[i] = e.pAbove(tau), e.pBelow(tau), e.pBelow(-tau)
	}
	// The interval shown is the one the verdict rests on: at the Holm
	// step level of the claim made, or — undecided — at alpha/m, where
	// it must span the threshold (any p below alpha/m is rejected).
	regLevel, impLevel := holmLevels(reg, alpha), holmLevels(imp, alpha)
	reg, imp = holm(reg), holm(imp)
	out := make([]Verdict, len(ests))
	for i, e := range ests {
		c := cells[i]
		level := alpha / float64(len(ests))
		switch {
		case reg[i] < alpha:
			level = regLevel[i]
		case imp[i] < alpha:
			level = impLevel[i]
		case pass[i] < alpha:
			level = alpha
		}
		lo, hi := e.bounds(level)
		c.Ratio, c.Lo, c.Hi = math.Exp(e.center()), finiteOrZero(math.Exp(lo)), finiteOrZero(math.Exp(hi))
		c.P, c.PAdj, c.Rounds = e.pAbove(tau), reg[i], e.rounds()
		interval := fmt.Sprintf("%+.1f%% [%s, %s]", pct(c.Ratio), bound(lo), bound(hi))
		switch {
		case reg[i] < alpha:
			out[i] = Regression
			c.Reason = fmt.Sprintf("%s: at least %.1f%% slower, above the %.0f%% threshold (p=%.2g, corrected for %d cells)",
				interval, pct(c.Lo), 100*threshold, reg[i], len(ests))
		case imp[i] < alpha:
			out[i] = Improved
			c.Reason = fmt.Sprintf("%s: at least %.1f%% faster, beyond the %.0f%% threshold", interval, -pct(c.Hi), 100*threshold)
		case pass[i] < alpha:
			out[i] = Pass
			c.Reason = fmt.Sprintf("%s: any slowdown is below the %.0f%% threshold", interval, 100*threshold)
		case math.IsInf(lo, 0) || math.IsInf(hi, 0):
			c.Reason = fmt.Sprintf("%s: %d rounds are too few for an interval at this level", interval, e.rounds())
		default:
			c.Reason = fmt.Sprintf("%s: spans the %.0f%% threshold", interval, 100*threshold)
			if n := roundsToDecide(e, tau, level); n > e.rounds() && n <= 500 {
				c.NeedRounds = n
				c.Reason += fmt.Sprintf("; about %d rounds would decide", n)
			}
			if len(ests) > 1 {
				c.Reason += fmt.Sprintf(" (corrected for %d cells)", len(ests))
			}
		}
	}
	return out
}

// bound formats a bound on the log scale as a percent change.
func bound(x float64) string {
	switch {
	case math.IsInf(x, -1):
		return "-100%"
	case math.IsInf(x, 1):
		return "+∞"
	}
	return Percent(math.Exp(x))
}

// finiteOrZero keeps infinities out of JSON: 0 means "no bound".
func finiteOrZero(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return x
}

func pct(ratio float64) float64 { return 100 * (ratio - 1) }

// roundsToDecide estimates how many rounds would shrink the interval
// enough to clear the nearer edge (±threshold) at the present spread; 0 if
// the estimate sits on an edge.
func roundsToDecide(e estimate, tau, alpha float64) int {
	m := e.center()
	gap := min(math.Abs(m-tau), math.Abs(m+tau))
	lo, hi := e.bounds(alpha)
	half := (hi - lo) / 2
	if gap <= 0 || !(half > 0) || math.IsInf(half, 0) || e.rounds() < 1 {
		return 0
	}
	n := float64(e.rounds()) * (half / gap) * (half / gap)
	if n > 1e6 {
		return 0
	}
	return int(math.Ceil(n))
}
