package cli

import (
	"strings"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// planCells resolves the flags' names into implementations, workloads,
// thread counts and parameter sweeps, and has the harness plan the cells.
func planCells(implList, workloadList, threadList string, params []string) ([]harness.Cell, error) {
	var ims []store.Impl
	for _, name := range splitList(implList) {
		im, err := impls.Lookup(name)
		if err != nil {
			return nil, err
		}
		ims = append(ims, im)
	}
	var wls []workloads.Workload
	for _, name := range splitList(workloadList) {
		w, err := workloads.Lookup(name)
		if err != nil {
			return nil, err
		}
		wls = append(wls, w)
	}
	threads, err := harness.ParseThreads(threadList)
	if err != nil {
		return nil, err
	}
	sweep, err := harness.ParseSweep(params)
	if err != nil {
		return nil, err
	}
	return harness.Plan(ims, wls, sweep, threads)
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string { return harness.SplitList(s) }

// withoutParam drops the -param values for name.
func withoutParam(params []string, name string) []string {
	var out []string
	for _, p := range params {
		if !strings.HasPrefix(p, name+"=") {
			out = append(out, p)
		}
	}
	return out
}
