package harness

import (
	"github.com/montanaflynn/stats"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/perfrun/perfrun/harness/results"
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

// Set returns the results as benchfmt records with the run's configuration
// and unit metadata, in a stable order — the cells in the order they were
// planned (implementations in registry order, then parameters, then
// threads), then rounds — whatever order they were measured in, so that
// benchstat's rows and columns read top to bottom.
func (r *Results) Set() *results.Set {
	set := results.New("results", "")
	var config []benchfmt.Config
	for _, kv := range r.Environment() {
		config = append(config, benchfmt.Config{Key: kv.Key, Value: []byte(kv.Value), File: true})
	}
	byCell := make(map[string][]Sample)
	for _, s := range r.Samples {
		byCell[s.Cell.Name()] = append(byCell[s.Cell.Name()], s)
	}
	var units []string
	seen := make(map[string]bool)
	for _, c := range r.Cells {
		for _, s := range byCell[c.Name()] {
			rec := &benchfmt.Result{Config: config, Name: benchfmt.Name(c.Name()), Iters: 1}
			for _, m := range s.Metrics {
				rec.Values = append(rec.Values, results.Value(m.Value, m.Unit))
				if !seen[m.Unit] {
					seen[m.Unit] = true
					units = append(units, m.Unit)
				}
			}
			set.Add(rec)
		}
	}
	for _, u := range results.Metadata(units) {
		set.AddUnit(u)
	}
	return set
}

// Values returns one metric of one cell across rounds, in round order, in
// the unit it was measured in (ns/op, not tidied).
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
