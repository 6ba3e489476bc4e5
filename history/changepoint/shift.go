package changepoint

import (
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
	"github.com/montanaflynn/stats"
)

// Step is the size of a step: the Hodges–Lehmann estimate of the shift
// from the points before it to the points after it, with a 95% interval.
type Step struct {
	Shift, Low, High float64
}

// MaxSide bounds how many points on each side of a step its size is
// measured from: the nearest ones, so a long segment costs no more than
// MaxSide² differences.
const MaxSide = 200

// ShiftOf measures the step from before to after: the median of every
// difference after[j] − before[i], and the distribution-free 95% interval
// whose ends are the differences the Mann–Whitney statistic's normal
// approximation puts at the 2.5th and 97.5th percentiles. Only the MaxSide
// points nearest the step on each side count: the end of before, the
// start of after.
func ShiftOf(before, after []float64) Step {
	if len(before) > MaxSide {
		before = before[len(before)-MaxSide:]
	}
	if len(after) > MaxSide {
		after = after[:MaxSide]
	}
	m, n := len(before), len(after)
	if m == 0 || n == 0 {
		return Step{Shift: math.NaN(), Low: math.NaN(), High: math.NaN()}
	}
	d := make([]float64, 0, m*n)
	for _, a := range after {
		for _, b := range before {
			d = append(d, a-b)
		}
	}
	slices.Sort(d)
	N := len(d)
	est, _ := stats.Median(d)
	mn := float64(m * n)
	c := mn/2 - moremath.StdNormal.InvCDF(0.975)*math.Sqrt(mn*float64(m+n+1)/12)
	k := int(math.Floor(c))
	if k < 0 {
		k = 0
	}
	return Step{Shift: est, Low: d[k], High: d[N-1-k]}
}
