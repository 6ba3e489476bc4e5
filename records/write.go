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
		if err := bw.Write(r); err != nil {
			return err
		}
	}
	return nil
}
