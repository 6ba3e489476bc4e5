package report

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/perfrun/perfrun/harness"
)

// JMHConfidence is the level of JMH's "Error" column.
const JMHConfidence = 0.999

// ScoreError returns the mean of values and the half-width of its
// Student-t confidence interval at JMHConfidence, as JMH reports
// throughput: Score ± Error. With one value the error is NaN.
func ScoreError(values []float64) (score, err float64) {
	s := harness.Summarize(values)
	if s.N < 2 {
		return s.Mean, math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(1 - (1-JMHConfidence)/2)
	return s.Mean, t * s.Std / math.Sqrt(float64(s.N))
}

// WriteJMH writes a JMH-style throughput table: one row per cell, Score ±
// Error in ops/s at 99.9% confidence.
func WriteJMH(w io.Writer, res *harness.Results) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Benchmark\tMode\tCnt\tScore\t\tError\tUnits\t")
	for _, c := range res.Cells {
		v := res.Values(c, harness.UnitOpsPerSec)
		score, e := ScoreError(v)
		fmt.Fprintf(tw, "%s%s\tthrpt\t%d\t%.3f\t±\t%.3f\tops/s\t\n", c.Name(), overMark(c), len(v), score, e)
	}
	return tw.Flush()
}
