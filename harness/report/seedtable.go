package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/harness"
)

// group is the cells of one workload and parameter set, across
// implementations and threads: one seed table per implementation.
type group struct {
	title   string
	impls   []string
	threads []int
	cells   map[string]map[int]harness.Cell // impl -> threads -> cell
}

func groups(res *harness.Results) []*group {
	var out []*group
	byKey := make(map[string]*group)
	for _, c := range res.Cells {
		key := c.Workload.Title
		if len(c.Params) > 0 {
			key += "/" + c.Params.String()
		}
		g, ok := byKey[key]
		if !ok {
			g = &group{title: key, cells: make(map[string]map[int]harness.Cell)}
			byKey[key] = g
			out = append(out, g)
		}
		if g.cells[c.Impl.Name] == nil {
			g.cells[c.Impl.Name] = make(map[int]harness.Cell)
			g.impls = append(g.impls, c.Impl.Name)
		}
		if !slices.Contains(g.threads, c.Threads) {
			g.threads = append(g.threads, c.Threads)
		}
		g.cells[c.Impl.Name][c.Threads] = c
	}
	return out
}

// WriteSeedTables writes, per workload, the table the seed discussions use
// for each implementation — | Threads | mean/us | var/us | of ns/op across
// rounds — then one side-by-side table of the means with throughput
// scaling. Oversubscribed rows (more threads than cores) are marked.
func WriteSeedTables(w io.Writer, res *harness.Results) {
	for _, g := range groups(res) {
		fmt.Fprintf(w, "## %s\n\n", g.title)
		for _, im := range g.impls {
			fmt.Fprintf(w, "%s\n\n| Threads |   mean/us |    var/us |\n|---------+-----------+-----------|\n", im)
			for _, t := range g.threads {
				c, ok := g.cells[im][t]
				if !ok {
					continue
				}
				s := harness.Summarize(us(res.Values(c, harness.UnitNsPerOp)))
				fmt.Fprintf(w, "| %7d | %9.6f | %9.6f |%s\n", t, s.Mean, s.Variance, overMark(c))
			}
			fmt.Fprintln(w)
		}
		writeSideBySide(w, res, g)
	}
	fmt.Fprintf(w, "* more threads than the %d cores: threads time-slice; shown, never gated.\n", harness.Cores())
	fmt.Fprintln(w, "mean/us and var/us are ns/op across rounds in microseconds (variance in us^2), as in the seed tables.")
}

func writeSideBySide(w io.Writer, res *harness.Results, g *group) {
	fmt.Fprintf(w, "side by side: mean us/op ± std (throughput vs 1 thread)\n\n| Threads |")
	for _, im := range g.impls {
		fmt.Fprintf(w, " %-24s |", im)
	}
	fmt.Fprintf(w, "\n|---------|%s\n", strings.Repeat("--------------------------|", len(g.impls)))
	for _, t := range g.threads {
		fmt.Fprintf(w, "| %7d |", t)
		for _, im := range g.impls {
			c, ok := g.cells[im][t]
			if !ok {
				fmt.Fprintf(w, " %-24s |", "")
				continue
			}
			s := harness.Summarize(us(res.Values(c, harness.UnitNsPerOp)))
			cell := fmt.Sprintf("%.3f ± %.3f", s.Mean, s.Std)
			if base, ok := g.cells[im][1]; ok && t != 1 {
				one := harness.Summarize(res.Values(base, harness.UnitOpsPerSec)).Mean
				now := harness.Summarize(res.Values(c, harness.UnitOpsPerSec)).Mean
				if one > 0 {
					cell += fmt.Sprintf(" (%.2fx)", now/one)
				}
			}
			fmt.Fprintf(w, " %-24s |", cell)
		}
		fmt.Fprintf(w, "%s\n", overMark(g.cells[g.impls[0]][t]))
	}
	fmt.Fprintln(w)
}

func overMark(c harness.Cell) string {
	if c.Threads > harness.Cores() {
		return " *"
	}
	return ""
}

func us(ns []float64) []float64 {
	out := make([]float64, len(ns))
	for i, v := range ns {
		out[i] = v / 1000
	}
	return out
}
