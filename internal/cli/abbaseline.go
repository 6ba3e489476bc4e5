package cli

import (
	"flag"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
)

// baselineCells makes ab -baseline measure the cells the baseline holds,
// no more: its implementations, workloads, thread counts and parameters,
// each unless the user's own flag chose it, and only its cells by name. A
// baseline of two designs measured all four.
func (a *abOptions) baselineCells(fs *flag.FlagSet) error {
	path, err := baselines.Path(a.baseline)
	if err != nil {
		return err
	}
	set, err := records.ReadFile(path)
	if err != nil {
		return subcommand.AsUsage(err)
	}
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var impls, workloads, names []string
	var threads []int
	params := make(map[string][]string)
	var keys []string
	for _, c := range set.Cells() {
		if c.IsReference() || c.Impl == "" {
			continue
		}
		names = append(names, c.Name)
		parts := strings.Split(c.Name, "/")
		if w := strings.ToLower(parts[0]); !slices.Contains(workloads, w) {
			workloads = append(workloads, w)
		}
		if !slices.Contains(impls, c.Impl) {
			impls = append(impls, c.Impl)
		}
		if !slices.Contains(threads, c.Threads) {
			threads = append(threads, c.Threads)
		}
		for _, kv := range parts[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "impl" || k == "threads" {
				continue
			}
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
			if !slices.Contains(params[k], v) {
				params[k] = append(params[k], v)
			}
		}
	}
	if len(names) == 0 {
		return nil // nothing to narrow to: ab measures what its flags say
	}
	slices.Sort(threads)
	if !given["impl"] {
		a.impl = strings.Join(impls, ",")
	}
	if !given["workload"] {
		a.workload = strings.Join(workloads, ",")
	}
	if !given["threads"] {
		ts := make([]string, len(threads))
		for i, t := range threads {
			ts[i] = strconv.Itoa(t)
		}
		a.threads = strings.Join(ts, ",")
	}
	if !given["param"] {
		a.params = nil
		for _, k := range keys {
			a.params = append(a.params, k+"="+strings.Join(params[k], ","))
		}
	}
	if !given["impl"] && !given["workload"] && !given["threads"] && !given["param"] {
		a.only = campaign.MatchNames(names)
	}
	return nil
}
