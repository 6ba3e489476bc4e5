package harness

import (
	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// Set returns the results as benchfmt records with the run's configuration
// and unit metadata, in a stable order — the cells in the order they were
// planned (implementations in registry order, then parameters, then
// threads), then the controls, then rounds — whatever order they were
// measured in, so that benchstat's rows and columns read top to bottom.
// Set-aside samples come last, each under a "quarantined: why"
// configuration line: benchstat shows them as a table of their own,
// records.Set leaves them out of every summary. The kept samples come
// under "quarantined: no" (records.QuarantineKept).
func (r *Outcome) Set() *records.Set {
	set := records.New("results", "")
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
	all := append(append([]Cell(nil), r.Cells...), r.Controls...)
	var aside []*benchfmt.Result
	for _, c := range all {
		cells := records.CellsDesigns
		if records.IsReferenceName(c.Name()) {
			cells = records.CellsReference
		}
		for _, s := range byCell[c.Name()] {
			rec := &benchfmt.Result{Config: append(append([]benchfmt.Config(nil), config...),
				benchfmt.Config{Key: records.CellsKey, Value: []byte(cells), File: true}), Name: benchfmt.Name(c.Name()), Iters: 1}
			why := s.Quarantine
			if why == "" {
				why = records.QuarantineKept
			}
			rec.Config = append(rec.Config, benchfmt.Config{Key: records.QuarantineKey, Value: []byte(why), File: true})
			for _, m := range s.Metrics {
				rec.Values = append(rec.Values, records.Value(m.Value, m.Unit))
				if !seen[m.Unit] {
					seen[m.Unit] = true
					units = append(units, m.Unit)
				}
			}
			if s.Quarantine != "" {
				aside = append(aside, rec)
				continue
			}
			set.Add(rec)
		}
	}
	for _, rec := range aside {
		set.Add(rec)
	}
	for _, u := range records.Metadata(units) {
		set.AddUnit(u)
	}
	return set
}

// Values returns one metric of one cell across the rounds not set aside,
// in round order, in the unit it was measured in (ns/op, not tidied).
func (r *Outcome) Values(c Cell, unit string) []float64 { return r.valid(c, unit) }

// CompletedRounds counts the rounds with samples: the planned rounds
// completed, and any added after them.
func (r *Outcome) CompletedRounds() int {
	seen := make(map[int]bool)
	for _, s := range r.Samples {
		seen[s.Round] = true
	}
	return len(seen)
}
