package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// noImpl is the -impl value that measures -exec commands and no built-in
// store.
const noImpl = "none"

// Plan resolves the flags' names into implementations, workloads,
// thread counts and parameter sweeps, and has the harness plan the cells;
// the cells of foreign commands (-exec) follow the stores'.
func Plan(implList, workloadList, threadList string, params []string, cmds ...*foreign.Command) ([]harness.Cell, error) {
	var ims []store.Impl
	if implList == noImpl && len(cmds) > 0 {
		implList = "" // the commands alone
	}
	for _, name := range harness.SplitList(implList) {
		im, err := impls.Lookup(name)
		if err != nil {
			return nil, err
		}
		ims = append(ims, im)
	}
	var wls []workloads.Workload
	for _, name := range harness.SplitList(workloadList) {
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
	var cells []harness.Cell
	if len(ims) > 0 || len(cmds) == 0 {
		if cells, err = harness.Plan(ims, wls, sweep, threads); err != nil {
			return nil, err
		}
	}
	ccells, err := harness.PlanCommands(cmds, wls, sweep, threads)
	if err != nil {
		return nil, err
	}
	for _, c := range ccells {
		if _, err := impls.Lookup(c.Impl.Name); err == nil {
			return nil, fmt.Errorf("command %s has the name of a built-in implementation: name it otherwise", c.Impl.Name)
		}
	}
	return append(cells, ccells...), nil
}

// ParseCommands parses -exec values (NAME=COMMAND ARGS) with -exec-unit.
func ParseCommands(specs []string, unit string) ([]*foreign.Command, error) {
	var out []*foreign.Command
	seen := make(map[string]bool)
	for _, s := range specs {
		c, err := foreign.Parse(s, unit)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("two -exec commands named %s", c.Name)
		}
		seen[c.Name] = true
		out = append(out, c)
	}
	return out, nil
}

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

// withDefaultCost measures the models as OpenSSL runs them (cost=openssl)
// unless -param cost says otherwise: the main job answers OpenSSL PR
// 28599's question, where a bare model's lock is nearly all of its cost.
// ab and arm keep the workload's default (own), where a change to a store
// shows at its full size.
func withDefaultCost(params []string) []string {
	for _, p := range params {
		if strings.HasPrefix(p, "cost=") {
			return params
		}
	}
	return append(slices.Clone(params), "cost="+workloads.CostOpenSSL)
}
