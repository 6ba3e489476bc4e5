package predict

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/perfrun/perfrun/records"
)

// Held is a predicted cell's scaling beside a published cell's at a
// thread count both have: per(n)/per(1) of the prediction's middle and of
// its band's edges, and of the published table.
type Held struct {
	Cell, Published             string // names without their threads key
	Threads                     int
	Predicted, Low, High, Table float64
}

// Ratio is the predicted scaling over the published one.
func (h Held) Ratio() float64 { return h.Predicted / h.Table }

// Against holds every cell of pred whose implementation is a key of as
// against the cells of published whose implementation is its value, at
// each thread count above one that both have. Scaling is compared, not
// time: the machines differ, and a prediction starts from its own
// machine's time at one thread.
func Against(pred, published *records.Set, as map[string]string) ([]Held, error) {
	var out []Held
	for _, impl := range slices.Sorted(maps.Keys(as)) {
		mine := scalings(pred, impl)
		theirs := scalings(published, as[impl])
		if len(mine) == 0 {
			return nil, fmt.Errorf("%s: no predicted cell of impl=%s with a 1-thread point", pred.File, impl)
		}
		if len(theirs) == 0 {
			return nil, fmt.Errorf("%s: no cell of impl=%s with a 1-thread point", published.File, as[impl])
		}
		for _, m := range slices.Sorted(maps.Keys(mine)) {
			for _, p := range slices.Sorted(maps.Keys(theirs)) {
				a, b := mine[m], theirs[p]
				for _, n := range slices.Sorted(maps.Keys(a.mid)) {
					if n == 1 || !(b.mid[n] > 0) {
						continue
					}
					if !(b.mid[1] >= minPublished) || !(b.mid[n] >= minPublished) {
						return nil, fmt.Errorf("%s: %s at %d threads: a time per call under %g ns is no measurement", published.File, p, n, 1e9*minPublished)
					}
					lo, hi := a.low[n]/a.low[1], a.high[n]/a.high[1]
					mid := a.mid[n] / a.mid[1]
					out = append(out, Held{Cell: m, Published: p, Threads: n, Predicted: mid,
						Low: min(lo, hi, mid), High: max(lo, hi, mid), Table: b.mid[n] / b.mid[1]})
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s and %s share no thread count above one: nothing to hold the prediction against (predict at the published table's thread counts with -threads)", pred.File, published.File)
	}
	return out, nil
}

// minPublished is the least time per call a published table may give: a
// hundredth of a nanosecond is no store's, and less divides to nonsense.
const minPublished = 1e-11

// curve is one cell's medians by thread count: the time per call and,
// for a prediction, its band's edges (else the time again).
type curve struct{ mid, low, high map[int]float64 }

// scalings are the curves of impl's cells in s, by name without threads,
// those with a 1-thread point only.
func scalings(s *records.Set, impl string) map[string]curve {
	group := records.GroupWithout("threads")
	out := make(map[string]curve)
	for _, c := range s.Cells() {
		if c.Impl != impl {
			continue
		}
		n, err := strconv.Atoi(records.NameKey(c.Name, "threads"))
		if err != nil {
			continue
		}
		g := group(c)
		cv, ok := out[g]
		if !ok {
			cv = curve{mid: map[int]float64{}, low: map[int]float64{}, high: map[int]float64{}}
			out[g] = cv
		}
		med := func(unit string) float64 { return records.Median(c.Values[records.Tidy(unit)]) }
		cv.mid[n] = med(records.NsPerCall)
		cv.low[n], cv.high[n] = cv.mid[n], cv.mid[n]
		if v := med(Low); v > 0 {
			cv.low[n] = v
		}
		if v := med(High); v > 0 {
			cv.high[n] = v
		}
	}
	for g, cv := range out {
		if !(cv.mid[1] > 0) {
			delete(out, g)
		}
	}
	return out
}
