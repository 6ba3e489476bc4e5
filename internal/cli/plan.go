package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// planCells resolves the flags' names into implementations, workloads,
// thread counts and parameter sweeps, and has the harness plan the cells;
// the cells of foreign commands (-exec) follow the stores'.
func planCells(implList, workloadList, threadList string, params []string, cmds ...*foreign.Command) ([]harness.Cell, error) {
	var ims []store.Impl
	if implList == noImpl && len(cmds) > 0 {
		implList = "" // the commands alone
	}
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

// noImpl is the -impl value that measures -exec commands and no built-in
// store.
const noImpl = "none"

// commandFlags are the flags that add foreign commands as cells, shared by
// run, ab and arm.
type commandFlags struct {
	specs subcommand.ListFlag
	unit  string
}

func (f *commandFlags) define(fs *flag.FlagSet) {
	fs.Var(&f.specs, "exec", "a foreign benchmark as a cell: `NAME=COMMAND ARGS` run once per window, {threads}, {corpus} and $VAR filled in; it prints one call's time as its last number (repeatable; -impl none for the commands alone; docs/exec.md)")
	fs.StringVar(&f.unit, "exec-unit", "", "unit of a bare number a -exec command prints: ns, us, ms or s")
}

// commands parses the -exec values.
func (f *commandFlags) commands() ([]*foreign.Command, error) {
	var out []*foreign.Command
	seen := make(map[string]bool)
	for _, s := range f.specs {
		c, err := foreign.Parse(s, f.unit)
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

// args gives the flags back, for an arm's command line.
func (f *commandFlags) args() []string {
	var out []string
	for _, s := range f.specs {
		out = append(out, "-exec", s)
	}
	if f.unit != "" {
		out = append(out, "-exec-unit", f.unit)
	}
	return out
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
