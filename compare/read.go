// Package compare decides what changed between results: benchstat's
// comparison (median, confidence interval, Mann-Whitney U through
// golang.org/x/perf/benchmath), hyperfine-style speedups between
// implementations, and the gate verdict a CI job acts on. It reads
// records.Set, the one results model.
//
// Its opinion: a CI gate must never cry wolf. Comparing many cells at
// alpha 0.05 with no correction alarms on about one in twenty unchanged
// cells, and a noisy machine swings far more than any threshold, so the
// gate corrects for the number of cells (Holm), demands a minimum effect,
// never gates cells whose threads only time-slice, and says INCONCLUSIVE
// rather than REGRESSION when the data cannot decide. Exact metrics
// (allocs/op, instructions/op) need no statistics and gate on plain
// thresholds.
//
// Its place: on the results model alone (records), below everything that
// prints or runs.
//
// Its promise: the verdicts — PASS, REGRESSION, IMPROVED, INCONCLUSIVE,
// MISSING — keep the meaning docs/compare.md gives them, and Compare, Gate,
// Thresholds (start from DefaultThresholds), Report and CellVerdict keep
// theirs. Other exported names serve perfrun's commands and may change
// between versions.
package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// Shared returns the cells present in both sets, in a's order, and an
// error if there are none.
func Shared(a, b *records.Set) ([]*records.Cell, error) {
	var out []*records.Cell
	for _, c := range a.Cells() {
		if _, ok := b.Cell(c.Name); ok {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s and %s share no benchmark", a.File, b.File)
	}
	if !slices.ContainsFunc(out, func(c *records.Cell) bool { return !c.IsReference() }) {
		why := ""
		corpora := func(s *records.Set) string {
			if c := s.ConfigValues("corpus"); len(c) > 0 {
				return strings.Join(c, " | ")
			}
			return "no corpus"
		}
		if ca, cb := a.ConfigValues("corpus"), b.ConfigValues("corpus"); !slices.Equal(ca, cb) {
			why = fmt.Sprintf(": they measured different corpora (%s vs %s)", corpora(a), corpora(b))
		}
		return nil, fmt.Errorf("%s and %s share only the machine's reference cells (Control, Floor), no design's cell%s", a.File, b.File, why)
	}
	return out, nil
}
