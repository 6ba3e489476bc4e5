package harness

import (
	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/harness/results"
)

// Set returns the results as benchfmt records with the run's configuration
// and unit metadata, in a stable order — the cells in the order they were
// planned (implementations in registry order, then parameters, then
// threads), then rounds — whatever order they were measured in, so that
// benchstat's rows and columns read top to bottom.
func (r *Results) Set() *results.Set {
	set := results.New("results", "")
	var config []benchfmt.Config
	for _, kv := range r.Environment() {
		config = append(config, benchfmt.Config{Key: kv.Key, Value: []byte(kv.Value), File: true})
	}
	byCell := make(map[string][]Sample)
	for _, s := range r.Samples {
		byCell[s.Cell.Name()] = append(byCell[s.Cell.Name()], s)
	}
	var units []string
	seen := make(map[string]bool)
	for _, c := range r.Cells {
		for _, s := range byCell[c.Name()] {
			rec := &benchfmt.Result{Config: config, Name: benchfmt.Name(c.Name()), Iters: 1}
			for _, m := range s.Metrics {
				rec.Values = append(rec.Values, results.Value(m.Value, m.Unit))
				if !seen[m.Unit] {
					seen[m.Unit] = true
					units = append(units, m.Unit)
				}
			}
			set.Add(rec)
		}
	}
	for _, u := range results.Metadata(units) {
		set.AddUnit(u)
	}
	return set
}

// Values returns one metric of one cell across rounds, in round order, in
// the unit it was measured in (ns/op, not tidied).
func (r *Results) Values(c Cell, unit string) []float64 {
	var out []float64
	for _, s := range r.Samples {
		if s.Cell.Name() != c.Name() {
			continue
		}
		for _, m := range s.Metrics {
			if m.Unit == unit {
				out = append(out, m.Value)
			}
		}
	}
	return out
}
