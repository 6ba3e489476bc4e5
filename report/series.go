package report

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// figure is the data of one plot: one series per implementation (per
// implementation and machine when the sets come from several machines),
// the values of a unit at each x (threads, or n for load), over rounds.
type figure struct {
	group  string // workload and fixed parameters, e.g. Issuer/certs=1024/hit=1
	series []series
	xs     []float64
	aside  []gap // the cells measured and set aside whole: a gap in their lines
	vals   map[series]map[float64][]float64
	// par is the machine's delivered parallelism p(threads), by machine
	// ("" when one), from the sets' control cells.
	par map[string]map[int]float64
}

// A gap is a cell of a line measured and set aside whole: no point.
type gap struct {
	s series
	x float64
}

// series is one line: an implementation, on a machine ("" when one).
type series struct{ impl, machine string }

func (s series) String() string {
	if s.machine == "" {
		return s.impl
	}
	return s.impl + " @ " + s.machine
}

// shortLabels names each set for a legend: a label that is a file's path
// by its base name without .txt (old.txt, not perfrun-out/old.txt), a
// revision without its commit's subject, unless that would name two sets
// alike.
func shortLabels(sets []*records.Set) map[*records.Set]string {
	out := make(map[*records.Set]string)
	seen := make(map[string]bool)
	for _, s := range sets {
		// A file's path by its base name; a revision ("main (1a2b3c4
		// subject)") by its name alone, which may hold a '/'.
		short := shortRevision(s.Label)
		if strings.HasSuffix(s.Label, ".txt") {
			short = strings.TrimSuffix(filepath.Base(s.Label), ".txt")
		}
		if short == "" || short == "." || seen[short] {
			for _, s := range sets {
				out[s] = s.Label
			}
			return out
		}
		seen[short] = true
		out[s] = short
	}
	return out
}

// figures groups the sets' cells by everything but impl and xKey, keeping
// only those keep accepts (e.g. one thread for load plots). Series are
// named by source — the set's label when byLabel (old and new of a
// comparison), else its machine — only when there is more than one.
func figures(sets []*records.Set, unit, xKey string, byLabel bool, keep func(*records.Cell) bool) []*figure {
	// A CPU's brand string comes padded with spaces: one space apart in a
	// legend.
	source := func(s *records.Set) string { return strings.Join(strings.Fields(s.Machine()), " ") }
	if byLabel {
		short := shortLabels(sets)
		source = func(s *records.Set) string { return short[s] }
	}
	machines := make(map[string]bool)
	for _, s := range sets {
		machines[source(s)] = true
	}
	groupOf, xOf := records.GroupWithout("impl", xKey), records.KeyOf(xKey)
	var out []*figure
	byGroup := make(map[string]*figure)
	aside := make(map[string][]gap) // measured, every sample set aside: a gap, not a bridge
	for _, s := range sets {
		machine := ""
		if len(machines) > 1 {
			machine = source(s)
		}
		par := s.Parallelism()
		for _, c := range s.Cells() {
			v := c.Values[unit]
			x, err := strconv.ParseFloat(xOf(c), 64)
			if err != nil || c.Impl == "" || (keep != nil && !keep(c)) {
				continue
			}
			group := groupOf(c)
			if len(v) == 0 {
				if c.Aside > 0 {
					aside[group] = append(aside[group], gap{series{c.Impl, machine}, x})
				}
				continue
			}
			f, ok := byGroup[group]
			if !ok {
				f = &figure{group: group, vals: make(map[series]map[float64][]float64), par: make(map[string]map[int]float64)}
				byGroup[group] = f
				out = append(out, f)
			}
			if len(par) > 1 && xKey == "threads" {
				f.par[machine] = par
			}
			sr := series{c.Impl, machine}
			if f.vals[sr] == nil {
				f.vals[sr] = make(map[float64][]float64)
				f.series = append(f.series, sr)
			}
			if !slices.Contains(f.xs, x) {
				f.xs = append(f.xs, x)
			}
			f.vals[sr][x] = append(f.vals[sr][x], v...)
		}
	}
	for _, f := range out {
		for _, g := range aside[f.group] {
			if !slices.Contains(f.xs, g.x) {
				f.xs = append(f.xs, g.x)
			}
			if !slices.Contains(f.aside, g) {
				f.aside = append(f.aside, g)
			}
		}
		slices.Sort(f.xs)
	}
	return out
}
