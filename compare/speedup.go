package compare

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/montanaflynn/stats"

	"github.com/perfrun/perfrun/records"
)

// Speedup is hyperfine's statement "Fast ran Ratio ± Err times faster than
// Slow" for two implementations in the same cell.
type Speedup struct {
	Cell       string // the benchmark name without its impl key
	Fast, Slow string
	Ratio, Err float64
}

func (s Speedup) String() string {
	return fmt.Sprintf("%s: %s ran %.2f ± %.2f times faster than %s", s.Cell, s.Fast, s.Ratio, s.Err, s.Slow)
}

// Speedups compares, within each cell of the set, the fastest
// implementation by mean ns/op with each other one. The error propagates
// both standard deviations, as hyperfine does:
// ratio·sqrt((σa/μa)² + (σb/μb)²).
func Speedups(s *records.Set, unit string) []Speedup {
	type impl struct {
		name      string
		mean, std float64
	}
	cells := make(map[string][]impl)
	var order []string
	withoutImpl := records.GroupWithout("impl")
	for _, c := range s.Cells() {
		v := c.Values[unit]
		cell, im := withoutImpl(c), c.Impl
		if len(v) == 0 || im == "" {
			continue
		}
		data := stats.Float64Data(v)
		mean, _ := data.Mean()
		std, _ := data.StandardDeviationSample()
		if math.IsNaN(std) {
			std = 0
		}
		if _, ok := cells[cell]; !ok {
			order = append(order, cell)
		}
		cells[cell] = append(cells[cell], impl{im, mean, std})
	}
	var out []Speedup
	for _, cell := range order {
		list := cells[cell]
		sort.SliceStable(list, func(i, j int) bool { return list[i].mean < list[j].mean })
		fast := list[0]
		for _, slow := range list[1:] {
			if fast.mean <= 0 {
				continue
			}
			r := slow.mean / fast.mean
			e := r * math.Hypot(fast.std/fast.mean, slow.std/slow.mean)
			out = append(out, Speedup{cell, fast.name, slow.name, r, e})
		}
	}
	return out
}

// WriteSpeedups prints one line per pair.
func WriteSpeedups(w io.Writer, label string, sp []Speedup) {
	if len(sp) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", label)
	for _, s := range sp {
		fmt.Fprintf(w, "  %s\n", s)
	}
	fmt.Fprintln(w)
}
