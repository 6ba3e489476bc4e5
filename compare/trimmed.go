package compare

import (
	"math"
	"slices"
)

// trim is the fraction cut from each end of a sample before its mean is
// taken. A shared machine sometimes takes a CPU away for hundreds of
// milliseconds, and the windows it hits run far slower (results/notes.md,
// "Trimming: how often the host slows a window"). A mean and its t
// interval follow those outliers (the interval widens until nothing can be
// decided); the 20% trimmed mean
// with the Winsorized variance (Tukey and McLaughlin 1963; Yuen 1974 for
// two samples) ignores them and loses little when the noise is normal.
const trim = 0.2

// minTrimmed is the fewest values a side a two-file estimate trims. Below
// it trimming leaves too few values for the Welch-style degrees of freedom
// to decide anything, and quarantine has already set aside the slow
// windows trimming was for; an outlier left widens the interval, which
// makes a verdict harder, never wrong (results/notes.md, "Trimming in the
// file gate").
const minTrimmed = 10

// trimmedStats returns the mean of x trimmed by the fraction tr at each
// end, the Winsorized variance and the number of values left after
// trimming.
func trimmedStats(x []float64, tr float64) (mean, wvar float64, h int) {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	g := int(math.Floor(tr * float64(n)))
	h = n - 2*g
	for _, v := range s[g : n-g] {
		mean += v
	}
	mean /= float64(h)
	// Winsorize: the trimmed values are replaced by the nearest kept one.
	var wm float64
	w := make([]float64, n)
	for i, v := range s {
		w[i] = min(max(v, s[g]), s[n-g-1])
		wm += w[i]
	}
	wm /= float64(n)
	for _, v := range w {
		wvar += (v - wm) * (v - wm)
	}
	if n > 1 {
		wvar /= float64(n - 1)
	}
	return mean, wvar, h
}

// twoSample estimates the difference of locations new - old of two
// independent samples (log values of two files): Yuen's trimmed-mean
// difference with its standard error and Welch-style degrees of freedom,
// untrimmed (Welch's t) when either side has fewer than minTrimmed values.
func twoSample(old, new []float64) tEstimate {
	tr := trim
	if min(len(old), len(new)) < minTrimmed {
		tr = 0
	}
	ma, va, ha := trimmedStats(old, tr)
	mb, vb, hb := trimmedStats(new, tr)
	q := func(v float64, n, h int) float64 { return float64(n-1) * v / (float64(h) * float64(h-1)) }
	qa, qb := q(va, len(old), ha), q(vb, len(new), hb)
	e := tEstimate{mean: mb - ma, se: math.Sqrt(qa + qb), n: min(len(old), len(new))}
	e.df = float64(ha + hb - 2)
	if qa+qb > 0 {
		e.df = (qa + qb) * (qa + qb) / (qa*qa/float64(ha-1) + qb*qb/float64(hb-1))
	}
	return e
}
