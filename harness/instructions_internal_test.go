package harness

import (
	"testing"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// TestCountSizedBySetAsideSamples: a cell whose every sample the machine
// set aside is counted for as many operations as its disturbed samples'
// time says fill InstructionBudget — a reload of 5.7 ms an operation was
// counted for 20 000 operations, as a lookup of a microsecond would be,
// and ran under callgrind for most of an hour.
func TestCountSizedBySetAsideSamples(t *testing.T) {
	c := Cell{Impl: store.Impl{Name: "hashmap"}, Workload: workloads.Workload{Name: "reload"}, Threads: 1}
	r := &Outcome{Cells: []Cell{c}, Periods: map[string]int{}}
	for range 3 {
		r.Samples = append(r.Samples, Sample{Cell: c, Quarantine: "a worker waited", Metrics: []workloads.Metric{{Value: 5.7e6, Unit: records.NsPerOp}}})
	}
	for got, n := range r.countedCells() {
		if got.Name() != c.Name() || n > 64 {
			t.Errorf("%s counted for %d operations: want a few, as 5.7 ms an operation fills %v", got.Name(), n, InstructionBudget)
		}
	}
}
