package harness

import (
	"testing"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// TestCountIsFixedInAdvance: a cell is counted for the same operations
// whatever its windows measured — kept, set aside by a busy host, or
// none — its workload's count in whole rotations: a lookup cell eight
// rotations, a reload one batch, however long its windows said an
// operation takes.
func TestCountIsFixedInAdvance(t *testing.T) {
	for _, c := range []struct {
		workload workloads.Workload
		period   int
		want     int
	}{
		{workloads.Issuer, 1024, 8192},
		{workloads.Reload, 0, callgrind.BatchSize},
	} {
		cell := Cell{Impl: store.Impl{Name: "hashmap"}, Workload: c.workload, Threads: 1}
		for _, samples := range [][]Sample{
			nil,
			{{Cell: cell, Metrics: []workloads.Metric{{Value: 30, Unit: records.NsPerOp}}}},
			{{Cell: cell, Metrics: []workloads.Metric{{Value: 5.7e6, Unit: records.NsPerOp}}}},
			{{Cell: cell, Quarantine: "a worker waited", Metrics: []workloads.Metric{{Value: 900, Unit: records.NsPerOp}}}},
		} {
			r := &Outcome{Cells: []Cell{cell}, Samples: samples, Periods: map[string]int{cell.Name(): c.period}}
			for got, n := range r.countedCells() {
				if got.Name() != cell.Name() || n != c.want {
					t.Errorf("%s with samples %v: counted for %d operations, want %d", got.Name(), samples, n, c.want)
				}
			}
		}
	}
}
