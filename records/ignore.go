package records

import (
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// withoutKeys drops the /key=value parts of name whose key is in keys.
func withoutKeys(name benchfmt.Name, keys []string) benchfmt.Name {
	base, parts := name.Parts()
	kept := []string{string(base)}
	for _, p := range parts {
		key, _, ok := strings.Cut(strings.TrimPrefix(string(p), "/"), "=")
		if ok && p[0] == '/' && slices.Contains(keys, key) {
			continue
		}
		kept = append(kept, string(p))
	}
	return benchfmt.Name(strings.Join(kept, ""))
}
