package compare

import (
	"math"
	"slices"

	"github.com/perfrun/perfrun/records"
)

// signedRank is the location of paired differences (per-round log ratios)
// by Wilcoxon's signed-rank statistic: the Hodges-Lehmann estimate (the
// median of the Walsh averages) with tests and confidence bounds from the
// exact null distribution. It is why ab can see through a shared machine,
// where now and then the host slows one arm of a round by far more than
// any change (results/notes.md, "Trimming: how often the host slows a
// window"): a mean and its t interval follow those rounds, a trimmed mean
// throws data away, while the signed-rank estimate keeps 95% of the mean's
// efficiency on normal noise and is hardly moved by a slow round.
type signedRank struct {
	x     []float64 // the differences, sorted
	walsh []float64 // every (x_i + x_j)/2, i ≤ j, sorted
	dist  []float64 // dist[w] = P(W+ = w) under the null, for n = len(x)
}

func newSignedRank(x []float64) *signedRank {
	s := &signedRank{x: slices.Clone(x)}
	slices.Sort(s.x)
	for i := range s.x {
		for j := i; j < len(s.x); j++ {
			s.walsh = append(s.walsh, (s.x[i]+s.x[j])/2)
		}
	}
	slices.Sort(s.walsh)
	s.dist = signedRankDist(len(x))
	return s
}

// signedRankDist is the null distribution of W+ for n pairs: the share of
// the 2^n sign patterns whose positive ranks sum to w.
func signedRankDist(n int) []float64 {
	max := n * (n + 1) / 2
	c := make([]float64, max+1)
	c[0] = 1
	for r := 1; r <= n; r++ {
		for w := max; w >= r; w-- {
			c[w] += c[w-r]
		}
	}
	total := math.Ldexp(1, n)
	for w := range c {
		c[w] /= total
	}
	return c
}

func (s *signedRank) rounds() int     { return len(s.x) }
func (s *signedRank) center() float64 { return records.Median(s.walsh) }

// wPlus is the signed-rank statistic of x - shift: the sum of the ranks of
// |x_i - shift| over the positive differences (zeros dropped, as ties of
// continuous data have probability 0), and how many differences count.
func (s *signedRank) wPlus(shift float64) (w, n int) {
	type d struct {
		abs float64
		pos bool
	}
	var ds []d
	for _, v := range s.x {
		if v != shift {
			ds = append(ds, d{math.Abs(v - shift), v > shift})
		}
	}
	slices.SortFunc(ds, func(a, b d) int {
		switch {
		case a.abs < b.abs:
			return -1
		case a.abs > b.abs:
			return 1
		}
		return 0
	})
	for i, v := range ds {
		if v.pos {
			w += i + 1
		}
	}
	return w, len(ds)
}

func (s *signedRank) distFor(n int) []float64 {
	if n == len(s.x) {
		return s.dist
	}
	return signedRankDist(n)
}

// pAbove is the one-sided p-value of H0: θ ≤ shift against θ > shift.
func (s *signedRank) pAbove(shift float64) float64 {
	w, n := s.wPlus(shift)
	var p float64
	for v, q := range s.distFor(n) {
		if v >= w {
			p += q
		}
	}
	return min(p, 1)
}

// pBelow is the one-sided p-value of H0: θ ≥ shift against θ < shift.
func (s *signedRank) pBelow(shift float64) float64 {
	w, n := s.wPlus(shift)
	var p float64
	for v, q := range s.distFor(n) {
		if v <= w {
			p += q
		}
	}
	return min(p, 1)
}

// bounds are the one-sided confidence bounds at level 1-alpha each, by
// inverting the test: the (c+1)-th smallest and largest Walsh averages,
// c the largest count with P(W+ ≤ c) ≤ alpha. With too few rounds for
// that level there is no bound: -Inf and +Inf.
func (s *signedRank) bounds(alpha float64) (lo, hi float64) {
	c, cum := -1, 0.0
	for w, q := range s.dist {
		if cum+q > alpha {
			break
		}
		cum += q
		c = w
	}
	if c < 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return s.walsh[c], s.walsh[len(s.walsh)-1-c]
}
