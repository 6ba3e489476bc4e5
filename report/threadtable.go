package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchunit"

	"github.com/perfrun/perfrun/records"
)

// table is the cells of one group (a workload and its parameters), across
// implementations and threads: one per-thread table per implementation.
type table struct {
	group   string
	impls   []string
	threads []int
	cells   map[string]map[int]*records.Cell // impl -> threads -> cell
	unit    string                           // the timed unit shown: sec/call, or sec/add for load
}

func tables(s *records.Set) []*table {
	var out []*table
	byGroup := make(map[string]*table)
	for _, c := range s.Cells() {
		if c.IsReference() {
			continue // the machine's, not a design's: see writeMachine and floorRow
		}
		t, ok := byGroup[c.Group]
		if !ok {
			t = &table{group: c.Group, cells: make(map[string]map[int]*records.Cell), unit: records.Tidy(records.NsPerCall)}
			byGroup[c.Group] = t
			out = append(out, t)
		}
		if t.cells[c.Impl] == nil {
			t.cells[c.Impl] = make(map[int]*records.Cell)
			t.impls = append(t.impls, c.Impl)
		}
		if !slices.Contains(t.threads, c.Threads) {
			t.threads = append(t.threads, c.Threads)
		}
		t.cells[c.Impl][c.Threads] = c
		if _, ok := c.Values[records.Tidy(records.NsPerAdd)]; ok {
			t.unit = records.Tidy(records.NsPerAdd)
		}
	}
	for _, t := range out {
		slices.Sort(t.threads)
	}
	return out
}

// perCall says the table's unit is time per call, from whose means a
// speedup follows.
func (t *table) perCall() bool { return t.unit == records.Tidy(records.NsPerCall) }

// scale is a common scale for the means of a table's timed unit, so every
// row of it reads in one unit that fits (ns, µs, ms).
func (t *table) scale() benchunit.Scaler {
	var means []float64
	for _, byThreads := range t.cells {
		for _, c := range byThreads {
			if v := c.Values[t.unit]; len(v) > 0 {
				means = append(means, records.Summarize(v).Mean)
			}
		}
	}
	if len(means) == 0 {
		// Every sample set aside: headed in nanoseconds, as a run's
		// tables are, not in seconds ("mean/s" read as a rate).
		means = []float64{1e-9}
	}
	return benchunit.CommonScale(means, benchunit.Decimal)
}

// what names the table's unit for headings: "call" or "add".
func (t *table) what() string {
	_, per, _ := strings.Cut(t.unit, "/")
	return per
}

// WriteThreadTables writes, per workload and parameters, the table OpenSSL PR
// 28599 printed for each implementation — | Threads | mean | var | of the
// time one worker spends per call (per add for load) across rounds — then
// one side-by-side table of the means with throughput scaling. Rows with
// more threads than cores are marked, and explained only when present.
func WriteThreadTables(w io.Writer, s *records.Set, cores int) {
	over := false
	par := s.Parallelism()
	for _, t := range tables(s) {
		sc := t.scale()
		u := sc.Prefix + "s"
		perObject := false
		fmt.Fprintf(w, "## %s\n\n", t.group)
		writeCost(w, s, t.group)
		for _, im := range t.impls {
			_, perObject = t.cells[im][t.threads[0]].Values[records.BPerObject]
			fmt.Fprintf(w, "%s\n\n", im)
			rows := [][]string{{"Threads", "mean/" + u, "var/" + u + "²"}}
			if perObject {
				rows[0] = append(rows[0], records.BPerObject)
			}
			var marks []string
			for _, th := range t.threads {
				c, ok := t.cells[im][th]
				if !ok {
					continue
				}
				sum := records.Summarize(c.Values[t.unit])
				row := []string{strconv.Itoa(th),
					strconv.FormatFloat(sum.Mean/sc.Factor, 'f', sc.Prec+1, 64),
					strconv.FormatFloat(sum.Variance/(sc.Factor*sc.Factor), 'f', sc.Prec+1, 64)}
				switch sum.N {
				case 0:
					// No number, not a zero: every sample set aside, or the
					// cell lacks the unit.
					row = []string{strconv.Itoa(th), missing(c), missing(c)}
				case 1:
					row[2] = "— (1 round)" // one kept round has no variance, not a variance of 0
				}
				if perObject {
					row = append(row, strconv.FormatFloat(records.Summarize(c.Values[records.BPerObject]).Mean, 'f', 0, 64))
				}
				rows = append(rows, row)
				mark := overMark(th, cores)
				over = over || mark != ""
				marks = append(marks, mark)
			}
			writeTable(w, rows, marks)
			fmt.Fprintln(w)
		}
		writeSideBySide(w, t, sc, cores, par)
		writeFloor(w, s, t)
		fmt.Fprintf(w, "mean and var: time one worker spends per %s (%s), over rounds, as in OpenSSL PR 28599's tables.\n\n", t.what(), strings.Replace(t.unit, "sec", u, 1))
	}
	if over {
		fmt.Fprintf(w, "* more threads than the %d cores: threads time-slice; shown, never gated.\n", cores)
	}
	writeFidelity(w, s)
	writeMachine(w, s, par)
}

// writeMachine says what the machine delivered: p(n) per thread count from
// the control cells, and how many samples were set aside.
func writeMachine(w io.Writer, s *records.Set, par map[int]float64) {
	var threads []int
	for n := range par {
		threads = append(threads, n)
	}
	slices.Sort(threads)
	if len(threads) > 1 {
		var parts []string
		for _, n := range threads[1:] {
			parts = append(parts, fmt.Sprintf("p(%d) = %.2f", n, par[n]))
		}
		fmt.Fprintf(w, "machine: the control delivered %s; efficiency is a design's speedup ÷ p(n).\n", strings.Join(parts, ", "))
	}
	aside, cells := 0, 0
	for _, c := range s.Cells() {
		if c.Aside > 0 {
			aside += c.Aside
			cells++
		}
	}
	if aside > 0 {
		fmt.Fprintf(w, "set aside: %d samples of %d cells the machine disturbed (quarantined: lines in the file), not in these tables.\n", aside, cells)
	}
}

// writeTable writes rows as a Markdown-style table with right-aligned
// columns as wide as their widest entry, the first row as the header;
// marks[i] follows data row i.
func writeTable(w io.Writer, rows [][]string, marks []string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	line := func(r []string) string {
		var b strings.Builder
		b.WriteString("|")
		for i, cell := range r {
			fmt.Fprintf(&b, " %*s |", width[i], cell)
		}
		return b.String()
	}
	fmt.Fprintln(w, line(rows[0]))
	var rule strings.Builder
	for i, wd := range width {
		sep := "+"
		if i == len(width)-1 {
			sep = "|"
		}
		if i == 0 {
			rule.WriteString("|")
		}
		rule.WriteString(strings.Repeat("-", wd+2) + sep)
	}
	fmt.Fprintln(w, rule.String())
	for i, r := range rows[1:] {
		fmt.Fprintf(w, "%s%s\n", line(r), marks[i])
	}
}

func writeSideBySide(w io.Writer, t *table, sc benchunit.Scaler, cores int, par map[int]float64) {
	scaling := "median throughput vs 1 thread"
	if t.perCall() {
		scaling = "speedup: threads × mean(1) ÷ mean(n), from these means"
	}
	if len(par) > 1 {
		scaling += ", efficiency"
	}
	fmt.Fprintf(w, "side by side: mean %ss/%s ± std (%s)\n\n| Threads |", sc.Prefix, t.what(), scaling)
	width, meanWidth := 24, 7
	if len(par) > 1 {
		width = 30
	}
	for _, im := range t.impls {
		fmt.Fprintf(w, " %-*s |", width, im)
	}
	fmt.Fprintf(w, "\n|---------|%s\n", strings.Repeat(strings.Repeat("-", width+2)+"|", len(t.impls)))
	ops := records.Tidy(records.OpsPerSec)
	var loose []string
	for _, th := range t.threads {
		fmt.Fprintf(w, "| %7d |", th)
		for _, im := range t.impls {
			c, ok := t.cells[im][th]
			if !ok {
				fmt.Fprintf(w, " %-*s |", width, "")
				continue
			}
			s := records.Summarize(c.Values[t.unit])
			if len(c.Values) == 0 {
				fmt.Fprintf(w, " %-*s |", width, missing(c))
				continue
			}
			// The mean right-aligned and the spread after it, so the
			// numbers line up as in the per-thread tables.
			cell, suffix := fmt.Sprintf("%*.*f ± %-*.*f", meanWidth, sc.Prec, s.Mean/sc.Factor, 6, sc.Prec, s.Std/sc.Factor), ""
			switch s.N {
			case 0:
				cell = missing(c)
			case 1: // one kept round has no spread to show
				cell = fmt.Sprintf("%.*f (1 round)", sc.Prec, s.Mean/sc.Factor)
			}
			if base, ok := t.cells[im][1]; ok && th != 1 && len(base.Values[ops]) > 0 {
				one := records.Summarize(base.Values[ops]).Median
				now := records.Summarize(c.Values[ops]).Median
				unit := ops
				if m1 := records.Summarize(base.Values[t.unit]).Mean; t.perCall() && m1 > 0 && s.Mean > 0 {
					// The speedup the means beside it imply: n workers each
					// taking mean(n) per call against one taking mean(1).
					one, now, unit = 1, float64(th)*m1/s.Mean, t.unit
				}
				switch p := par[th]; {
				case one > 0 && p > 0 && (cores == 0 || th <= cores):
					// Efficiency only where the cores exist: above them the
					// threads time-slice, and speedup over p(n) means nothing.
					suffix = fmt.Sprintf(" (%.2fx, %.0f%%)", now/one, 100*now/one/p)
					switch u := ratioError(base.Values[unit], c.Values[unit]); {
					case th > cores:
					case math.IsInf(u, 1):
						loose = append(loose, fmt.Sprintf("%s at %d threads %.0f%% (one kept round: no spread)", im, th, 100*now/one/p))
					case u > looseEfficiency:
						loose = append(loose, fmt.Sprintf("%s at %d threads %.0f%% (±%.0f%% of it)", im, th, 100*now/one/p, 100*u))
					}
				case one > 0:
					suffix = fmt.Sprintf(" (%.2fx)", now/one)
				}
			}
			fmt.Fprintf(w, " %-*s |", width, cell+suffix)
		}
		fmt.Fprintf(w, "%s\n", overMark(th, cores))
	}
	fmt.Fprintln(w)
	if len(loose) > 0 {
		fmt.Fprintf(w, "efficiency known only to more than ±%.0f%% of itself: %s — the rounds moved between windows more than the cores the machine delivered explain (on a shared host its per-core speed drifts); more rounds (-rounds, -precision) narrow it.\n\n",
			100*looseEfficiency, strings.Join(loose, "; "))
	}
}

// missing stands in a table for a cell's number it does not have: "—",
// and "— (set aside)" where the machine disturbed every sample (the file
// keeps them under quarantined: lines).
func missing(c *records.Cell) string {
	if len(c.Values) == 0 && c.Aside > 0 {
		return "— (set aside)"
	}
	return "—"
}

// looseEfficiency is the relative uncertainty of an efficiency above which
// the table says it is not known well.
const looseEfficiency = 0.10

// ratioError is the relative uncertainty (two standard errors) of the
// ratio of two samples' centres: the standard errors of both, relative,
// added in quadrature.
func ratioError(a, b []float64) float64 {
	sa, sb := records.Summarize(a), records.Summarize(b)
	if sa.N < 2 || sb.N < 2 || sa.Mean <= 0 || sb.Mean <= 0 {
		return math.Inf(1)
	}
	return 2 * math.Hypot(sa.CV/math.Sqrt(float64(sa.N)), sb.CV/math.Sqrt(float64(sb.N)))
}

func overMark(threads, cores int) string {
	if cores > 0 && threads > cores {
		return " *"
	}
	return ""
}

// writeFloor names each design's distance from the limit of a lookup on
// this machine: its one-thread median ns/op over the floor cell's.
func writeFloor(w io.Writer, s *records.Set, t *table) {
	floor, ok := s.FloorOf(t.group)
	if !ok {
		return
	}
	unit := records.Tidy(records.NsPerOp)
	f := records.Summarize(floor.Values[unit]).Median
	if f <= 0 {
		return
	}
	var parts []string
	for _, im := range t.impls {
		if c, ok := t.cells[im][1]; ok && len(c.Values[unit]) > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f×", im, records.Summarize(c.Values[unit]).Median/f))
		}
	}
	fmt.Fprintf(w, "floor (an atomic pointer to a Go map, same keys): %.1f ns/op at 1 thread; each design over it: %s.\n\n",
		f*1e9, strings.Join(parts, ", "))
}

// writeCost says, under a group's heading, what its cost parameter added
// to each model's lookup, as the results file's configuration says.
func writeCost(w io.Writer, s *records.Set, group string) {
	_, params, _ := strings.Cut(group, "/")
	if _, v := records.WithoutCost(params); v != "" {
		for _, note := range s.ConfigValues("cost-" + v) {
			fmt.Fprintf(w, "cost=%s: %s.\n\n", v, note)
		}
	}
}
