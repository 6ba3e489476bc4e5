package records

import (
	"cmp"
	"io"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Write writes the set in the Go benchmark format: the unit metadata, then
// every record with its configuration, so that unmodified benchstat reads
// it (benchstat -col /impl -row /threads).
func (s *Set) Write(w io.Writer) error {
	bw := benchfmt.NewWriter(w)
	keys := make([]benchfmt.UnitMetadataKey, 0, len(s.Units))
	for k := range s.Units {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b benchfmt.UnitMetadataKey) int {
		return cmp.Or(strings.Compare(a.Unit, b.Unit), strings.Compare(a.Key, b.Key))
	})
	for _, k := range keys {
		if err := bw.Write(s.Units[k]); err != nil {
			return err
		}
	}
	for _, r := range s.Records {
		if err := bw.Write(oneLineConfig(r)); err != nil {
			return err
		}
	}
	return nil
}

// oneLineConfig is r with every configuration value made OneLine: a value
// from a flag, a path or a library's version string is data, and never
// becomes a configuration line of its own. r is copied only if it must be.
func oneLineConfig(r *benchfmt.Result) *benchfmt.Result {
	for i, c := range r.Config {
		if v := string(c.Value); OneLine(v) != v {
			out := r.Clone()
			for j := i; j < len(out.Config); j++ {
				out.Config[j].Value = []byte(OneLine(string(out.Config[j].Value)))
			}
			return out
		}
	}
	return r
}
