// Package changepoint finds the steps in a benchmark's series over
// commits: E-divisive means (Matteson and James, "A nonparametric approach
// for multiple change point analysis of multivariate data", JASA 2014),
// the method MongoDB's and Apache Otava's performance CI use, with the
// permutation test that decides whether each step is real.
//
// Why this method: benchmark series are noisy, skewed and have outliers
// (a shared machine's bad minute), and nobody can say in advance how many
// steps a history holds. E-divisive assumes no distribution and no number
// of steps; it splits a series where the energy distance between the two
// sides is largest, and keeps a split only when fewer than Alpha of the
// series' random reorderings would have produced as large a statistic.
//
// The statistic is computed with α = 1 (absolute differences), where one
// dimension allows an exact O(n log n) evaluation of every split point of
// a segment (two Fenwick trees over ranks), so a permutation test of a few
// hundred reorderings of a 500-commit series takes milliseconds. Each
// candidate split is between a point and the end of its segment (the
// segment is not also cut on its right, as ecp's e.divisive does), which
// keeps the search linear in the split points.
//
// A step's size is the Hodges–Lehmann shift between its two neighbouring
// segments with its distribution-free 95% interval (from the Mann–Whitney
// statistic), so a step's size and its uncertainty come from the same data
// the test used.
//
// Its place: at the bottom, pure statistics on float64 series; it imports
// nothing of perfrun.
//
// Its promise: Detect and ShiftOf keep their meaning, and give one answer
// for one series and one Options (the seed included) in every version.
package changepoint
