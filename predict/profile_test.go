package predict

import (
	"slices"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestOneListOfAProfilesUnits: the table lists every unit of a profile
// records knows, in the order records writes its groups, each once.
func TestOneListOfAProfilesUnits(t *testing.T) {
	var units []string
	for _, u := range ProfileUnits {
		units = append(units, u.Unit)
	}
	if want := slices.Concat(records.LockUnits, records.BusiestLockUnits, records.LineUnits, records.SpreadUnits, records.ReadUnits, records.WriterUnits); !slices.Equal(units, want) {
		t.Errorf("ProfileUnits %q, records' %q", units, want)
	}
	for i, u := range ProfileUnits {
		c := Cell{}
		*u.Of(&c) = float64(i + 1)
		if v := ProfileValues(c); v[i] != float64(i+1) || slices.Index(v, float64(i+1)) != i {
			t.Errorf("%s fills a field another unit also fills: %v", u.Unit, v)
		}
	}
}
