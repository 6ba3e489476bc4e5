package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// ProcessOptions choose what WriteProcesses shows.
type ProcessOptions struct {
	// Units are the units shown, as written (ns/call) or tidied
	// (sec/call); none: each cell's timed unit (ns/call, or ns/add for
	// load), ops/s and B/object, where the cell has them.
	Units []string
	// Vs, if set, names an implementation that every other one is divided
	// by, process by process, in the cells of the same group and threads.
	Vs string
	// Ignore are configuration keys whose differences to accept, as the
	// gate's -ignore-config.
	Ignore []string
}

// processCell is one cell across the processes: the cell of each set, nil
// where a process lacks it.
type processCell struct {
	name   string
	group  string
	impl   string
	thread int
	of     []*records.Cell
}

// WriteProcesses prints several results files of the same suite, one
// process each, as the project judges a machine that drifts between
// processes: per cell and unit, each process's median over its kept
// rounds, the median of those, and how much the rounds within a process
// spread; then each design's scaling from one thread, and each design over
// Vs, both taken within a process before the median over processes.
func WriteProcesses(w io.Writer, sets []*records.Set, o ProcessOptions) error {
	if len(sets) == 0 {
		return fmt.Errorf("no results files")
	}
	// One median over processes of other machines or corpora means
	// nothing: refused as the gate refuses such a pair.
	for _, s := range sets[1:] {
		if _, err := compare.CheckConfig(sets[0], s, o.Ignore); err != nil {
			return err
		}
	}
	cells := processCells(sets)
	var rows []string
	for _, pc := range cells {
		for _, unit := range processUnits(pc, o.Units) {
			per := pc.medians(unit)
			var cvs []float64
			for _, c := range pc.of {
				if c != nil && len(c.Values[unit]) > 1 {
					cvs = append(cvs, records.Summarize(c.Values[unit]).CV)
				}
			}
			sd := "—"
			if len(cvs) > 0 {
				sd = fmt.Sprintf("%.1f%%", 100*records.Median(cvs))
			}
			name, scale := displayUnit(unit)
			rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\n", pc.name, name, number(medianOf(per)*scale), numbers(per, scale, number), sd))
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("none of the files has the units asked for (%s)", strings.Join(o.Units, ", "))
	}
	fmt.Fprintf(w, "%d processes, one a file; a value is a process's median over its kept rounds: the median over processes [each process, in file order], and the rounds' sd within a process (the median over processes).\n\n", len(sets))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "cell\tunit\tmedian\tprocesses\trounds' sd")
	for _, r := range rows {
		fmt.Fprint(tw, r)
	}
	tw.Flush()
	writeProcessScaling(w, cells)
	if o.Vs != "" {
		return writeProcessRatios(w, cells, o)
	}
	return nil
}

// processCells gathers the cells of every set by name, in the order they
// first appear.
func processCells(sets []*records.Set) []*processCell {
	var out []*processCell
	byName := make(map[string]*processCell)
	for i, s := range sets {
		for _, c := range s.Cells() {
			pc := byName[c.Name]
			if pc == nil {
				pc = &processCell{name: c.Name, group: c.Group, impl: c.Impl, thread: c.Threads, of: make([]*records.Cell, len(sets))}
				byName[c.Name] = pc
				out = append(out, pc)
			}
			pc.of[i] = c
		}
	}
	return out
}

// processUnits are the tidied units a cell shows: those asked for, or its
// timed unit, ops/s and B/object.
func processUnits(pc *processCell, asked []string) []string {
	have := func(u string) bool {
		return slices.ContainsFunc(pc.of, func(c *records.Cell) bool { return c != nil && len(c.Values[u]) > 0 })
	}
	var want []string
	if len(asked) == 0 {
		timed := records.Tidy(records.NsPerCall)
		if have(records.Tidy(records.NsPerAdd)) {
			timed = records.Tidy(records.NsPerAdd)
		}
		want = []string{timed, records.OpsPerSec, records.BPerObject}
	} else {
		for _, u := range asked {
			want = append(want, records.Tidy(u))
		}
	}
	var out []string
	for _, u := range want {
		if have(u) && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// medians is each process's median of unit, NaN where it has none.
func (pc *processCell) medians(unit string) []float64 {
	out := make([]float64, len(pc.of))
	for i, c := range pc.of {
		out[i] = math.NaN()
		if c != nil && len(c.Values[unit]) > 0 {
			out[i] = records.Median(c.Values[unit])
		}
	}
	return out
}

// writeProcessScaling prints, for every cell at more than one thread with
// a one-thread cell of its design beside it, ops/s at n threads over ops/s
// at one in each process; the control's is p(n), the parallelism the
// machine delivered.
func writeProcessScaling(w io.Writer, cells []*processCell) {
	one := make(map[string]*processCell)
	for _, pc := range cells {
		if pc.thread == 1 {
			one[pc.group+"\x00"+pc.impl] = pc
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, pc := range cells {
		base, ok := one[pc.group+"\x00"+pc.impl]
		if pc.thread <= 1 || !ok {
			continue
		}
		n, b := pc.medians(records.OpsPerSec), base.medians(records.OpsPerSec)
		ratios := make([]float64, len(n))
		for i := range n {
			ratios[i] = n[i] / b[i]
		}
		if allNaN(ratios) {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nscaling: ops/s at n threads over ops/s at 1, in each process (the control's is p(n), the parallelism the machine delivered)\n\n")
			fmt.Fprintln(tw, "cell\tthreads\tmedian\tprocesses")
			header = true
		}
		name := pc.group
		if pc.impl != "" {
			name += " " + pc.impl
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", name, pc.thread, ratio(medianOf(ratios)), numbers(ratios, 1, ratio))
	}
	tw.Flush()
}

// writeProcessRatios prints each design over o.Vs, cell by cell and unit
// by unit, divided within each process.
func writeProcessRatios(w io.Writer, cells []*processCell, o ProcessOptions) error {
	vs := make(map[string]*processCell)
	for _, pc := range cells {
		if pc.impl == o.Vs {
			vs[fmt.Sprintf("%s\x00%d", pc.group, pc.thread)] = pc
		}
	}
	if len(vs) == 0 {
		return fmt.Errorf("-vs %s: no cell of that implementation in the files", o.Vs)
	}
	fmt.Fprintf(w, "\nover %s: each design's value over %s's of the same group and threads, in each process\n\n", o.Vs, o.Vs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "cell\tunit\tmedian\tprocesses")
	for _, pc := range cells {
		ref, ok := vs[fmt.Sprintf("%s\x00%d", pc.group, pc.thread)]
		if pc.impl == o.Vs || pc.impl == "" || !ok {
			continue
		}
		for _, unit := range processUnits(pc, o.Units) {
			a, b := pc.medians(unit), ref.medians(unit)
			ratios := make([]float64, len(a))
			for i := range a {
				ratios[i] = a[i] / b[i]
			}
			if allNaN(ratios) {
				continue
			}
			name, _ := displayUnit(unit)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", pc.name, name, ratio(medianOf(ratios)), numbers(ratios, 1, ratio))
		}
	}
	return tw.Flush()
}

// medianOf is the median of the values that are numbers.
func medianOf(v []float64) float64 {
	var keep []float64
	for _, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			keep = append(keep, x)
		}
	}
	return records.Median(keep)
}

func allNaN(v []float64) bool { return math.IsNaN(medianOf(v)) }

// displayUnit is a tidied unit as perfrun writes it (sec/call is shown as
// ns/call) and the factor that takes a value there.
func displayUnit(unit string) (string, float64) {
	if rest, ok := strings.CutPrefix(unit, "sec/"); ok {
		return "ns/" + rest, 1e9
	}
	return unit, 1
}

// number prints a measured value to about four figures, a missing one as —.
func number(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// ratio prints a ratio to three decimals, a missing one as —.
func ratio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return fmt.Sprintf("%.3f", v)
}

// numbers prints each process's value, scaled, in brackets.
func numbers(v []float64, scale float64, format func(float64) string) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = format(x * scale)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
