package records

import (
	"math"
	"slices"

	"github.com/montanaflynn/stats"
	"golang.org/x/perf/benchmath"
)

// Confidence is the level of every confidence interval of a median, as
// benchstat reports it.
const Confidence = 0.95

// Summary describes one unit of one cell across rounds.
type Summary struct {
	N                   int
	Mean, Variance, Std float64 // sample variance and standard deviation
	CV                  float64 // Std / Mean
	Median, Lo, Hi      float64 // median and its confidence interval (infinite when too few rounds)
}

// Summarize computes the moments with montanaflynn/stats and the median
// with its distribution-free confidence interval with benchmath, the same
// as benchstat reports.
func Summarize(values []float64) Summary {
	s := Summary{N: len(values)}
	if s.N == 0 {
		return s
	}
	data := stats.Float64Data(append([]float64(nil), values...))
	s.Mean, _ = data.Mean()
	if s.N > 1 {
		s.Variance, _ = data.SampleVariance()
		s.Std, _ = data.StandardDeviationSample()
	}
	if s.Mean != 0 {
		s.CV = s.Std / s.Mean
	}
	sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(append([]float64(nil), values...), &benchmath.DefaultThresholds), Confidence)
	s.Median, s.Lo, s.Hi = sum.Center, sum.Lo, sum.Hi
	return s
}

// Interval is the median's 95% interval of values, or, with too few values
// for one (fewer than six), their range: what a value with its uncertainty
// is when the rounds are few.
func Interval(values []float64) (lo, hi float64) {
	s := Summarize(values)
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return slices.Min(values), slices.Max(values)
	}
	return s.Lo, s.Hi
}

// Median is the one median of the project: montanaflynn/stats's, the
// middle value (the mean of the two middle ones for an even count), the
// centre benchstat reports too. NaN for no values.
func Median(values []float64) float64 {
	m, err := stats.Median(values)
	if err != nil {
		return math.NaN()
	}
	return m
}

// PctRange is the median's interval as benchstat prints it: "± 3%", or
// "± ∞" when the rounds are too few for one.
func (s Summary) PctRange() string {
	return benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi, Confidence: Confidence}.PctRangeString()
}
