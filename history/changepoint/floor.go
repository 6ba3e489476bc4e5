package changepoint

import "math"

// Floor is about the smallest p-value the test gives a split of n points
// at tau, whatever the series: of the C(n, tau) orders a reordering draws
// from, two (either side first) separate the sides as a step no noise
// hides does, so even that step's p is about 1/(Permutations+1) plus
// 2/C(n, tau). A series of few points cannot show a step below it.
func Floor(n, tau int, o Options) float64 {
	o = o.withDefaults()
	if tau <= 0 || tau >= n {
		return 1
	}
	res := 1 / float64(o.Permutations+1)
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v } // log x!, no overflow at any length
	perfect := 2 * math.Exp(lg(tau)+lg(n-tau)-lg(n))
	return math.Min(1, res+(1-res)*perfect)
}

// Shortest is the fewest points a series needs before a step in it can
// pass the test at o.Alpha: the least n, at least 2·MinSize, whose most
// even split's Floor is at most Alpha. 0 if no length can (Alpha no
// larger than the test's resolution).
func Shortest(o Options) int {
	o = o.withDefaults()
	if 1/float64(o.Permutations+1) >= o.Alpha {
		return 0
	}
	for n := 2 * o.MinSize; ; n++ {
		if Floor(n, n/2, o) <= o.Alpha {
			return n
		}
	}
}

// Nearest is the best split of the whole of x and its p-value, whether or
// not it passes o.Alpha: the step Detect tests first, for saying how near
// a series without steps came to one. false if x is too short to split.
func Nearest(x []float64, o Options) (Change, bool) {
	o = o.withDefaults()
	o.Alpha = 1 // the p-value in full: the test stops early only above Alpha
	if len(x) < 2*o.MinSize {
		return Change{}, false
	}
	s := newSearch(x, o)
	g := s.newSegment(0, len(x))
	if g.tau == 0 || g.q <= 0 {
		return Change{}, false
	}
	p := s.pValue(g)
	if s.stopped() {
		return Change{}, false
	}
	return Change{Index: g.tau, Q: g.q, P: p}, true
}
