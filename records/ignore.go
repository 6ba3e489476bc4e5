package records

import (
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// WithoutKeys returns a copy of s whose benchmark names lack the name keys
// given, as benchstat's -ignore leaves them out: cells that differ only in
// them become one cell, and land in one group (one picture). Drawing a
// table's published numbers beside a run that names its corpus needs it.
func (s *Set) WithoutKeys(keys ...string) *Set {
	out := New(s.Label, s.File)
	out.keep = true
	for u, m := range s.Units {
		out.Units[u] = m
	}
	out.Warnings = s.Warnings
	for _, r := range s.Records {
		c := r.Clone()
		c.Name = withoutKeys(r.Name, keys)
		out.Add(c)
	}
	return out
}

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
