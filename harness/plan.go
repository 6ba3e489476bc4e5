package harness

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// Sweep is the parameter values a plan sweeps, each parameter's values in
// the order given and the parameters in the order first named.
type Sweep struct {
	order  []string
	values map[string][]string
}

// ParseSweep reads -param values: "name=v1,v2,..." each, a name given
// twice sweeping the values of both.
func ParseSweep(params []string) (Sweep, error) {
	s := Sweep{values: make(map[string][]string)}
	for _, p := range params {
		name, values, ok := strings.Cut(p, "=")
		if !ok || values == "" {
			return Sweep{}, fmt.Errorf("bad -param %q: want name=value[,value...]", p)
		}
		if !workloads.Known(name) {
			return Sweep{}, fmt.Errorf("unknown parameter %q (see perfrun list)", name)
		}
		if _, dup := s.values[name]; !dup {
			s.order = append(s.order, name)
		}
		s.values[name] = append(s.values[name], SplitList(values)...)
	}
	return s, nil
}

// Plan expands implementations, workloads, a sweep and thread counts into
// cells, in the order results are written: workloads, then
// implementations (as given), then parameter sets, then threads.
func Plan(ims []store.Impl, ws []workloads.Workload, sweep Sweep, threads []int) ([]Cell, error) {
	switch {
	case len(ims) == 0 && len(ws) == 0:
		return nil, fmt.Errorf("no implementation and no workload selected")
	case len(ims) == 0:
		return nil, fmt.Errorf("no implementation selected")
	case len(ws) == 0:
		return nil, fmt.Errorf("no workload selected")
	}
	var cells []Cell
	for _, w := range ws {
		var sets []workloads.Params
		for _, set := range sweep.combinations(w) {
			p, err := w.Resolve(set)
			if err != nil {
				return nil, err
			}
			sets = append(sets, p)
		}
		for _, im := range ims {
			seen := make(map[string]bool)
			for _, p := range sets {
				if im.Rule != store.ContractRule {
					// A real store does its own work: no model's cost applies.
					if p = withoutKey(p, "cost"); seen[p.String()] {
						continue
					}
					seen[p.String()] = true
				}
				for _, t := range threads {
					cells = append(cells, Cell{Impl: im, Workload: w, Params: p, Threads: t})
				}
			}
		}
	}
	return cells, nil
}

// combinations returns every assignment of the swept values that the
// workload declares (others are ignored for it).
func (s Sweep) combinations(w workloads.Workload) []map[string]string {
	sets := []map[string]string{{}}
	for _, name := range s.order {
		declared := false
		for _, p := range w.Params {
			declared = declared || p.Name == name
		}
		if !declared {
			continue
		}
		var next []map[string]string
		for _, set := range sets {
			for _, v := range s.values[name] {
				m := make(map[string]string, len(set)+1)
				for k, x := range set {
					m[k] = x
				}
				m[name] = v
				next = append(next, m)
			}
		}
		sets = next
	}
	return sets
}

// WithFloors adds, for each workload and parameters among cells whose
// workload has a floor, the floor cell at one thread: the limit of the
// operation on this machine, measured beside the designs.
func WithFloors(cells []Cell) []Cell {
	seen := make(map[string]bool)
	out := cells
	for _, c := range cells {
		if c.Workload.Floor == nil || (c.Command != nil && !c.Command.UsesCorpus()) {
			continue // a command with its own corpus has no floor of ours
		}
		f := Cell{Workload: *c.Workload.Floor, Params: declared(*c.Workload.Floor, c.Params), Threads: 1}
		if !seen[f.Name()] {
			seen[f.Name()] = true
			out = append(out, f)
		}
	}
	return out
}

// declared keeps the parameters w declares: a floor measures the lookup's
// limit, whatever else its cell sets (cost=real, say).
func declared(w workloads.Workload, p workloads.Params) workloads.Params {
	var out workloads.Params
	for _, kv := range p {
		for _, d := range w.Params {
			if d.Name == kv.Key {
				out = append(out, kv)
			}
		}
	}
	return out
}

// Match keeps the cells whose name matches the regular expression expr
// (all of them for ""); a match of none is an error.
func Match(cells []Cell, expr string) ([]Cell, error) {
	if expr == "" {
		return cells, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad -match: %w", err)
	}
	var out []Cell
	for _, c := range cells {
		if re.MatchString(c.Name()) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-match %q selects no cell", expr)
	}
	return out, nil
}

// SplitList splits a comma-separated list, dropping empty entries.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// PlanCommands plans cells of foreign commands as Plan plans stores: each
// command under each workload on each thread count. A command given the
// run's corpus ({corpus}) sweeps the workload's parameters like a store;
// one that is not measures what it measures, and its cells say no
// parameters.
func PlanCommands(cmds []*foreign.Command, ws []workloads.Workload, sweep Sweep, threads []int) ([]Cell, error) {
	var out []Cell
	for _, cmd := range cmds {
		im := store.Impl{Name: cmd.Name, Description: "command: " + strings.Join(cmd.Args, " ")}
		cells, err := Plan([]store.Impl{im}, ws, sweep, threads)
		if err != nil {
			return nil, err
		}
		seen := make(map[string]bool)
		for _, c := range cells {
			c.Command = cmd
			if !cmd.UsesCorpus() {
				c.Params = nil
			}
			// A command does its own work: no model's cost applies.
			c.Params = withoutKey(c.Params, "cost")
			if !seen[c.Name()] {
				seen[c.Name()] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// withoutKey is p without the parameter key.
func withoutKey(p workloads.Params, key string) workloads.Params {
	var out workloads.Params
	for _, kv := range p {
		if kv.Key != key {
			out = append(out, kv)
		}
	}
	return out
}
