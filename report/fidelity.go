package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// writeFidelity puts each model beside the real store it was measured
// with: where a run holds a real store (a library-IMPL line) and models,
// it prints, per set of parameters but the cost, every design's 1 → 2
// thread throughput (median ns/op at 1 thread over at 2), so anyone can
// see on their own corpus where a model stands against the real thing.
func writeFidelity(w io.Writer, s *records.Set) {
	type key struct{ params, label string }
	unit := records.Tidy(records.NsPerOp)
	at := make(map[key]map[int]float64)
	var order []key
	real := false
	for _, c := range s.Cells() {
		if c.IsReference() || (c.Threads != 1 && c.Threads != 2) || len(c.Values[unit]) == 0 {
			continue
		}
		_, group, _ := strings.Cut(c.Group, "/")
		params, cost := records.WithoutCost(group)
		label := c.Impl
		if cost != "" {
			label += " cost=" + cost
		}
		if lib := s.ConfigValues("library-" + c.Impl); len(lib) > 0 {
			label += " (" + lib[0] + ")"
			real = true
		}
		k := key{params, label}
		if at[k] == nil {
			at[k] = make(map[int]float64)
			order = append(order, k)
		}
		at[k][c.Threads] = records.Summarize(c.Values[unit]).Median
	}
	if !real || len(order) < 2 {
		return
	}
	var groups []string
	for _, k := range order {
		if !slices.Contains(groups, k.params) {
			groups = append(groups, k.params)
		}
	}
	var lines []string
	for _, g := range groups {
		var parts []string
		for _, k := range order {
			if m := at[k]; k.params == g && m[1] > 0 && m[2] > 0 {
				parts = append(parts, fmt.Sprintf("%s %.2f×", k.label, m[1]/m[2]))
			}
		}
		if len(parts) > 1 {
			lines = append(lines, fmt.Sprintf("  %s: %s\n", g, strings.Join(parts, ", ")))
		}
	}
	if len(lines) == 0 { // no two kept both their 1- and 2-thread cells
		return
	}
	fmt.Fprintf(w, "models beside the real store, 1 → 2 threads (throughput: median ns/op at 1 ÷ at 2):\n%s\n", strings.Join(lines, ""))
}
