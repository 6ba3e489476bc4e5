package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// Published summaries carry their error as a unit of their own beside the
// mean, and their count; the file's errorKindKey line says what the error is.
const (
	errorPrefix  = "published-error-"
	runsUnit     = "published-runs"
	errorKindKey = "published-error"
)

// WritePublished prints, for every benchmark measured on both sides of key
// (key=before and key=after), the change in the form its discussion
// printed it: hyperfine's "R ± E times faster" for times with a standard
// deviation, JMH's two scores with their 99.9% errors and whether they
// are apart, and a plain ratio for exact counts (callgrind's
// instructions). A side perfrun measured itself (several rounds) is read
// as hyperfine reads its runs: their mean and standard deviation.
func WritePublished(w io.Writer, s *records.Set, key, before, after string) error {
	type pair struct{ b, a *records.Cell }
	var order []string
	pairs := make(map[string]*pair)
	restOf, sideOf := records.GroupWithout(key), records.KeyOf(key)
	for _, c := range s.Cells() {
		rest, side := restOf(c), sideOf(c)
		if side != before && side != after {
			continue
		}
		p := pairs[rest]
		if p == nil {
			p = &pair{}
			pairs[rest] = p
			order = append(order, rest)
		}
		if side == before {
			p.b = c
		} else {
			p.a = c
		}
	}
	kind := s.Config(errorKindKey)
	n := 0
	for _, name := range order {
		p := pairs[name]
		if p.b == nil || p.a == nil {
			continue
		}
		// One time (a whole op first, as the discussions time a whole
		// program), and the instruction count where there is one.
		timed := false
		for _, unit := range []string{"sec/op", "sec/call", "ops/s", records.Instructions} {
			b, okb := summaryOf(p.b, unit)
			a, oka := summaryOf(p.a, unit)
			if !okb || !oka || timed && unit != records.Instructions {
				continue
			}
			timed = timed || unit != records.Instructions
			n++
			fmt.Fprintf(w, "%s: %s\n", name, ownTerms(unit, kind, b, a, before, after))
		}
	}
	if n == 0 {
		return fmt.Errorf("no benchmark has both %s=%s and %s=%s with a time, a throughput or an instruction count", key, before, key, after)
	}
	return nil
}

// ownTerms is one change in its discussion's form.
func ownTerms(unit, kind string, b, a compare.Summary, before, after string) string {
	switch {
	case unit == records.Instructions:
		return fmt.Sprintf("%.0f -> %.0f instructions: %.2f× fewer with %s (callgrind's counts, exact)", b.Mean, a.Mean, b.Mean/a.Mean, after)
	case unit == "ops/s" && kind == "ci99.9":
		apart := "their intervals overlap: JMH cannot tell them apart"
		if compare.Apart(b, a) {
			apart = "their intervals are apart"
		}
		return fmt.Sprintf("%.3f ± %.3f -> %.3f ± %.3f ops/s (99.9%% error, Cnt %d and %d): ×%.2f with %s; %s", b.Mean, b.Err, a.Mean, a.Err, b.N, a.N, a.Mean/b.Mean, after, apart)
	}
	r, e := compare.TimesFaster(b, a)
	if unit == "ops/s" {
		r, e = compare.TimesFaster(a, b) // a throughput: the other way up
	}
	return fmt.Sprintf("%s is %.2f ± %.2f times faster than %s (means %s ± %s and %s ± %s, σ of %d and %d runs)",
		after, r, e, before, valueOf(b.Mean, unit), valueOf(b.Err, unit), valueOf(a.Mean, unit), valueOf(a.Err, unit), b.N, a.N)
}

// valueOf is a value as the tables print it, a time with its s.
func valueOf(v float64, unit string) string {
	if strings.HasPrefix(unit, "sec/") {
		return records.FormatValue(v, unit) + "s"
	}
	return records.FormatValue(v, unit)
}

// summaryOf reads a cell's value in unit as a summary: a published mean
// with its error and count, or perfrun's rounds as their mean and
// standard deviation.
func summaryOf(c *records.Cell, unit string) (compare.Summary, bool) {
	v := c.Values[unit]
	if len(v) == 0 {
		return compare.Summary{}, false
	}
	if errs := c.Values[errorPrefix+unit]; len(errs) > 0 {
		n := 0
		if runs := c.Values[runsUnit]; len(runs) > 0 {
			n = int(runs[0])
		}
		return compare.Summary{Mean: v[0], Err: errs[0], N: n}, true
	}
	sum := records.Summarize(v)
	return compare.Summary{Mean: sum.Mean, Err: sum.Std, N: len(v)}, true
}
