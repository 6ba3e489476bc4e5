package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"
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
const Confidence = 0.95

// Compare compares every unit of every benchmark the sets share.
func Compare(old, new *Set) ([]Row, error) {
	names, err := Shared(old, new)
	if err != nil {
		return nil, err
	}
	thr := benchmath.DefaultThresholds
	var rows []Row
	for _, name := range names {
		for _, unit := range units(old, name) {
			nv, ok := new.Values[name][unit]
			if !ok {
				continue
			}
			s1 := benchmath.NewSample(clone(old.Values[name][unit]), &thr)
			s2 := benchmath.NewSample(clone(nv), &thr)
			r := Row{Name: name, Unit: unit,
				Old: Assumption.Summary(s1, Confidence), New: Assumption.Summary(s2, Confidence),
				Cmp: Assumption.Compare(s1, s2)}
			r.Significant = r.Cmp.P < r.Cmp.Alpha
			if r.Old.Center != 0 {
				r.Delta = r.New.Center/r.Old.Center - 1
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// units lists a benchmark's units in a stable order: the file's order of
// first appearance is lost in a map, so sort by a fixed preference.
func units(s *Set, name string) []string {
	pref := []string{"ns/op", "ops/s", "B/op", "allocs/op", "lock-wait-ns/op", "instructions/op"}
	var out []string
	seen := make(map[string]bool)
	for _, u := range pref {
		if _, ok := s.Values[name][u]; ok {
			out = append(out, u)
			seen[u] = true
		}
	}
	var rest []string
	for u := range s.Values[name] {
		if !seen[u] {
			rest = append(rest, u)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func clone(v []float64) []float64 { return append([]float64(nil), v...) }

// WriteCompare prints the rows grouped by unit, benchstat style: center ±
// CI range for each side, then the delta or "~" and the p-value.
func WriteCompare(w io.Writer, old, new *Set, rows []Row) {
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
				FormatValue(r.Old.Center), r.Old.PctRangeString(), FormatValue(r.New.Center), r.New.PctRangeString(),
				delta, r.Cmp.String())
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
}

// FormatValue prints a value with an SI suffix and four significant digits.
func FormatValue(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.3fG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3fM", v/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.3fk", v/1e3)
	}
	return fmt.Sprintf("%.4g", v)
}
