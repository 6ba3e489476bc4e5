package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/impls"
)

// figure is the data of one plot: one line per implementation, values of
// a unit at each x (threads, or n for load), over rounds.
type figure struct {
	group string // workload and fixed parameters, e.g. Issuer/certs=1024/hit=1
	impls []string
	xs    []float64
	vals  map[string]map[float64][]float64 // impl -> x -> values
}

// figures groups a set's benchmarks by everything but impl and xKey, keeping
// only those where fixed holds (e.g. threads=1 for load plots).
func figures(s *compare.Set, unit, xKey string, keep func(keys map[string]string) bool) []*figure {
	var out []*figure
	byGroup := make(map[string]*figure)
	for _, name := range s.Names {
		v := s.Values[name][unit]
		if len(v) == 0 {
			continue
		}
		parts := strings.Split(name, "/")
		keys := make(map[string]string)
		var groupParts []string
		groupParts = append(groupParts, parts[0])
		for _, p := range parts[1:] {
			k, val, _ := strings.Cut(p, "=")
			keys[k] = val
			if k != "impl" && k != xKey {
				groupParts = append(groupParts, p)
			}
		}
		x, err := strconv.ParseFloat(keys[xKey], 64)
		if err != nil || keys["impl"] == "" || (keep != nil && !keep(keys)) {
			continue
		}
		group := strings.Join(groupParts, "/")
		f, ok := byGroup[group]
		if !ok {
			f = &figure{group: group, vals: make(map[string]map[float64][]float64)}
			byGroup[group] = f
			out = append(out, f)
		}
		im := keys["impl"]
		if f.vals[im] == nil {
			f.vals[im] = make(map[float64][]float64)
			f.impls = append(f.impls, im)
		}
		if !slices.Contains(f.xs, x) {
			f.xs = append(f.xs, x)
		}
		f.vals[im][x] = append(f.vals[im][x], v...)
	}
	for _, f := range out {
		sort.Float64s(f.xs)
		sortImpls(f.impls)
	}
	return out
}

// sortImpls puts lines in the registry's order (impl@machine by its impl);
// names the registry does not know go last.
func sortImpls(names []string) {
	order := impls.Names()
	rank := func(s string) int {
		base, _, _ := strings.Cut(s, "@")
		if i := slices.Index(order, base); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.SliceStable(names, func(i, j int) bool { return rank(names[i]) < rank(names[j]) })
}

// fileName turns a group into a file-name stem.
func fileName(group string) string {
	r := strings.NewReplacer("/", "_", "=", "-", " ", "")
	return strings.ToLower(r.Replace(group))
}
