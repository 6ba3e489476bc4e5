package predict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// A HeldChange is one change of a held set: a file of each change's two
// arms' 1-thread counts, cells named change=NAME/arm=base or arm=head,
// head's carrying head ÷ base as time measured it at 1 and 2 threads
// (measured-ratio-1t, measured-ratio-2t), as
// results/scaling/runner/amd/held.py writes it. The prediction within the
// cores is held to such sets (WithinCores, RunnerHeld).
type HeldChange struct {
	Name       string
	Base, Head Cell
	head       *records.Cell
}

// HeldChanges are the changes of a held set, in the order it names them;
// a change without the counts of both arms is an error.
func HeldChanges(s *records.Set) ([]HeldChange, error) {
	arms := map[string][2]*records.Cell{}
	var names []string
	for _, c := range s.Cells() {
		name := records.NameKey(c.Name, "change")
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		a := arms[name]
		if records.NameKey(c.Name, "arm") == "base" {
			a[0] = c
		} else {
			a[1] = c
		}
		arms[name] = a
	}
	out := make([]HeldChange, 0, len(names))
	for _, name := range names {
		a := arms[name]
		if a[0] == nil || a[1] == nil {
			return nil, fmt.Errorf("%s: no counts of both arms", name)
		}
		base, ok1 := CountsOf(a[0])
		head, ok2 := CountsOf(a[1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: no counts of both arms", name)
		}
		out = append(out, HeldChange{Name: name, Base: base, Head: head, head: a[1]})
	}
	return out, nil
}

// Measured is head ÷ base as time measured it at n threads (1 or 2): NaN
// where time measured none.
func (h HeldChange) Measured(n int) float64 {
	return records.Median(h.head.Values[fmt.Sprintf("measured-ratio-%dt", n)])
}

// Predicted is head ÷ base at n threads predicted within the runner's two
// cores with k in place of the constants the change was made with.
func (h HeldChange) Predicted(n int, k Measured) (float64, error) {
	p, err := Change(h.Name, h.Base, h.Head, Threads(2), Fixed)
	if err == nil {
		err = p.Within(2, k)
	}
	if err != nil {
		return 0, err
	}
	r, _, _, _ := p.RatioAt(n)
	return r, nil
}

// Again is, for each change measured more than once among sets (named
// NAME-SEED in each, one seed a campaign), the least miss any one
// prediction of its head ÷ base at n threads could have against every
// measurement of it: (highest − lowest) ÷ (highest + lowest). What one
// change measured between hours and hosts is a floor under every model's
// miss.
func Again(n int, sets ...[]HeldChange) map[string]float64 {
	measured := map[string][]float64{}
	for _, set := range sets {
		for _, h := range set {
			if v := h.Measured(n); v > 0 {
				name := unseeded(h.Name)
				measured[name] = append(measured[name], v)
			}
		}
	}
	out := map[string]float64{}
	for name, v := range measured {
		if len(v) > 1 {
			lo, hi := slices.Min(v), slices.Max(v)
			out[name] = (hi - lo) / (hi + lo)
		}
	}
	return out
}

// unseeded is a held change's name without its campaign's seed.
func unseeded(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || strings.Trim(name[i+1:], "0123456789") != "" || i == len(name)-1 {
		return name
	}
	return name[:i]
}
