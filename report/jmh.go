package report

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	moremath "github.com/aclements/go-moremath/stats"

	"github.com/perfrun/perfrun/records"
)

// JMHConfidence is the level of JMH's "Error" column.
const JMHConfidence = 0.999

// ScoreError returns the mean of values and the half-width of its
// Student-t confidence interval at JMHConfidence, as JMH reports
// throughput: Score ± Error. With one value the error is NaN.
func ScoreError(values []float64) (score, err float64) {
	s := records.Summarize(values)
	if s.N < 2 {
		return s.Mean, math.NaN()
	}
	t := moremath.InvCDF(moremath.TDist{V: float64(s.N - 1)})(1 - (1-JMHConfidence)/2)
	return s.Mean, t * s.Std / math.Sqrt(float64(s.N))
}

// WriteJMH writes a JMH-style throughput table: one row per cell, Score ±
// Error in ops/s at 99.9% confidence ("n/a" where one round cannot give
// an error).
func WriteJMH(w io.Writer, s *records.Set, cores int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Benchmark\tMode\tCnt\tScore\t\tError\tUnits\t")
	for _, c := range s.Cells() {
		v := c.Values[records.OpsPerSec]
		score, e := ScoreError(v)
		errText := "n/a"
		if !math.IsNaN(e) {
			errText = fmt.Sprintf("%.3f", e)
		}
		fmt.Fprintf(tw, "%s%s\tthrpt\t%d\t%.3f\t±\t%s\tops/s\t\n", c.Name, overMark(c.Threads, cores), len(v), score, errText)
	}
	return tw.Flush()
}
