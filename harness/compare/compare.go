package compare

import (
	"fmt"
	"io"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/perfrun/perfrun/records"
)

// Row is one benchmark and unit compared between two sets, as benchstat
// compares them.
type Row struct {
	Name, Unit string
	Old, New   benchmath.Summary
	Cmp        benchmath.Comparison
	// Delta is New/Old - 1 of the centers, meaningful only if Significant.
	Delta       float64
	Significant bool
}

// Assumption is benchstat's default: no distributional assumption (median,
// order-statistic CI, Mann-Whitney U).
var Assumption = benchmath.AssumeNothing

// Confidence of the reported intervals, as benchstat.
const Confidence = records.Confidence

// Compare compares every unit of every benchmark the sets share, in the
// order OLD lists them.
func Compare(old, new *records.Set) ([]Row, error) {
	cells, err := Shared(old, new)
	if err != nil {
		return nil, err
	}
	thr := benchmath.DefaultThresholds
	var rows []Row
	for _, oc := range cells {
		nc, _ := new.Cell(oc.Name)
		for _, unit := range oc.Units {
			nv, ok := nc.Values[unit]
			if !ok {
				continue
			}
			assume := old.Assumption(unit)
			s1 := benchmath.NewSample(clone(oc.Values[unit]), &thr)
			s2 := benchmath.NewSample(clone(nv), &thr)
			r := Row{Name: oc.Name, Unit: unit,
				Old: assume.Summary(s1, Confidence), New: assume.Summary(s2, Confidence),
				Cmp: assume.Compare(s1, s2)}
			r.Significant = r.Cmp.P < r.Cmp.Alpha
			if r.Old.Center != 0 {
				r.Delta = r.New.Center/r.Old.Center - 1
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

func clone(v []float64) []float64 { return append([]float64(nil), v...) }

// WriteCompare prints the rows grouped by unit, benchstat style: center ±
// CI range for each side, then the delta or "~" and the p-value.
func WriteCompare(w io.Writer, old, new *records.Set, rows []Row) {
	byUnit := make(map[string][]Row)
	var order []string
	for _, r := range rows {
		if _, ok := byUnit[r.Unit]; !ok {
			order = append(order, r.Unit)
		}
		byUnit[r.Unit] = append(byUnit[r.Unit], r)
	}
	for _, unit := range order {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\t%s\t\t%s\t\t\t\n", unit, old.Label, new.Label)
		for _, r := range byUnit[unit] {
			delta := "~"
			if r.Significant {
				delta = fmt.Sprintf("%+.2f%%", 100*r.Delta)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name,
				records.FormatValue(r.Old.Center, unit), r.Old.PctRangeString(), records.FormatValue(r.New.Center, unit), r.New.PctRangeString(),
				delta, r.Cmp.String())
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
}
