package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
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
// CI range for each side, then the delta or "~" and the p-value, a geomean
// row, and benchstat's footnotes where an interval or a test has too few
// samples. A unit that is zero everywhere in both (B/op of a store that
// never allocates) gets one line, not a table.
func WriteCompare(w io.Writer, old, new *records.Set, rows []Row) {
	byUnit := make(map[string][]Row)
	var order, zero []string
	for _, r := range rows {
		if _, ok := byUnit[r.Unit]; !ok {
			order = append(order, r.Unit)
		}
		byUnit[r.Unit] = append(byUnit[r.Unit], r)
	}
	for _, unit := range order {
		if allZero(byUnit[unit]) {
			zero = append(zero, unit)
			continue
		}
		var notes footnotes
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\t%s\t\t%s\t\t\t\n", unit, old.Label, new.Label)
		for _, r := range byUnit[unit] {
			delta := "~"
			if r.Significant {
				delta = fmt.Sprintf("%+.2f%%", 100*r.Delta)
			}
			cmp := r.Cmp.String()
			if r.Cmp.Warnings != nil {
				cmp += notes.mark(r.Cmp.Warnings[0].Error())
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name,
				records.FormatValue(r.Old.Center, unit), notes.interval(r.Old), records.FormatValue(r.New.Center, unit), notes.interval(r.New),
				delta, cmp)
		}
		if g, ok := geomeans(byUnit[unit]); ok {
			fmt.Fprintf(tw, "geomean\t%s\t\t%s\t\t%+.2f%%\t\n", records.FormatValue(g[0], unit), records.FormatValue(g[1], unit), 100*(g[1]/g[0]-1))
		}
		tw.Flush()
		notes.write(w)
		fmt.Fprintln(w)
	}
	if len(zero) > 0 {
		fmt.Fprintf(w, "%s: 0 in every benchmark of both\n\n", strings.Join(zero, ", "))
	}
}

func allZero(rows []Row) bool {
	for _, r := range rows {
		if r.Old.Center != 0 || r.New.Center != 0 {
			return false
		}
	}
	return true
}

// geomeans are the geometric means of the old and new centers of the
// designs' rows (not the machine's reference cells), where every center is
// positive.
func geomeans(rows []Row) ([2]float64, bool) {
	var sum [2]float64
	n := 0
	for _, r := range rows {
		if records.IsReferenceName(r.Name) {
			continue
		}
		n++
		if !(r.Old.Center > 0 && r.New.Center > 0) {
			return sum, false
		}
		sum[0] += math.Log(r.Old.Center)
		sum[1] += math.Log(r.New.Center)
	}
	return [2]float64{math.Exp(sum[0] / float64(n)), math.Exp(sum[1] / float64(n))}, n > 1
}

// footnotes number the reasons a table's entries carry, as benchstat's
// superscripts do.
type footnotes struct{ texts []string }

func (f *footnotes) mark(text string) string {
	i := slices.Index(f.texts, text)
	if i < 0 {
		f.texts = append(f.texts, text)
		i = len(f.texts) - 1
	}
	return " " + superscript(i+1)
}

// interval is a summary's "± x%", or "± ∞" with a footnote saying why.
func (f *footnotes) interval(s benchmath.Summary) string {
	if r := s.PctRangeString(); r != "∞" {
		return r
	}
	return "± ∞" + f.mark(summaryWhy(s))
}

// IntervalText is a summary's interval for a table with no footnotes:
// "± 2%", or "± ∞ (n=5: too few samples)" where there is none.
func IntervalText(s benchmath.Summary) string {
	if r := s.PctRangeString(); r != "∞" {
		return r
	}
	return fmt.Sprintf("± ∞ (%s)", summaryWhy(s))
}

func summaryWhy(s benchmath.Summary) string {
	if len(s.Warnings) > 0 {
		return s.Warnings[0].Error()
	}
	return "too few samples for a confidence interval"
}

func (f *footnotes) write(w io.Writer) {
	for i, t := range f.texts {
		fmt.Fprintf(w, "%s %s\n", superscript(i+1), t)
	}
}

func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var out []rune
	for _, c := range strconv.Itoa(n) {
		out = append(out, digits[c-'0'])
	}
	return string(out)
}
