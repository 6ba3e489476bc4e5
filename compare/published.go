package compare

import "math"

// A published summary is all some discussions print: a mean, an error of
// a stated kind and a count, never the samples. It is compared in the
// terms its tool uses, never as if it were a sample.

// Summary is a mean with its error: the runs' standard deviation
// (hyperfine's σ), or the half-width of an interval (JMH's 99.9% error),
// over N runs or iterations.
type Summary struct {
	Mean, Err float64
	N         int
}

// TimesFaster is hyperfine's "R ± E times faster": how many times the
// mean time of after fits in before's, with the error propagated from both
// standard deviations to first order, as hyperfine computes it.
func TimesFaster(before, after Summary) (r, e float64) {
	r = before.Mean / after.Mean
	e = r * math.Hypot(before.Err/before.Mean, after.Err/after.Mean)
	return r, e
}

// Apart says whether two scores' intervals (mean ± error, JMH's 99.9%
// half-widths) do not overlap: JMH's own reading of a difference.
func Apart(a, b Summary) bool {
	return a.Mean+a.Err < b.Mean-b.Err || b.Mean+b.Err < a.Mean-a.Err
}
