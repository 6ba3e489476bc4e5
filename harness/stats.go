package harness

import (
	"github.com/montanaflynn/stats"
	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the median's confidence interval, as benchstat.
const Confidence = 0.95

// Summary describes one metric of one cell across rounds.
type Summary struct {
	N                   int
	Mean, Variance, Std float64 // sample variance and standard deviation
	CV                  float64 // Std / Mean
	Median, Lo, Hi      float64 // median and its confidence interval
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

// Values returns one metric of one cell across rounds, in round order.
func (r *Results) Values(c Cell, unit string) []float64 {
	var out []float64
	for _, s := range r.Samples {
		if s.Cell.Name() != c.Name() {
			continue
		}
		for _, m := range s.Metrics {
			if m.Unit == unit {
				out = append(out, m.Value)
			}
		}
	}
	return out
}

// Units returns every unit the cell reported, in first-seen order.
func (r *Results) Units(c Cell) []string {
	var out []string
	seen := make(map[string]bool)
	for _, s := range r.Samples {
		if s.Cell.Name() != c.Name() {
			continue
		}
		for _, m := range s.Metrics {
			if !seen[m.Unit] {
				seen[m.Unit] = true
				out = append(out, m.Unit)
			}
		}
	}
	return out
}
