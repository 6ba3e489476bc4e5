package published_test

import (
	"slices"
	"testing"

	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// TestTheEmbeddedTablesAreTheEvidence: the tables perfrun embeds
// (predict/published) hold pr28599.txt's cells and values, every one: a
// copy that drifted from the evidence fails here.
func TestTheEmbeddedTablesAreTheEvidence(t *testing.T) {
	evidence, err := records.ReadFile("pr28599.txt")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := published.PR28599()
	if err != nil {
		t.Fatal(err)
	}
	want, got := evidence.Cells(), embedded.Cells()
	if len(want) != len(got) {
		t.Fatalf("%d cells embedded, %d in the evidence", len(got), len(want))
	}
	for i, c := range want {
		if got[i].Name != c.Name || len(got[i].Values) != len(c.Values) {
			t.Fatalf("cell %d: embedded %s with %d units, the evidence %s with %d", i, got[i].Name, len(got[i].Values), c.Name, len(c.Values))
		}
		for unit, values := range c.Values {
			if !slices.Equal(got[i].Values[unit], values) {
				t.Errorf("%s %s: embedded %v, the evidence %v", c.Name, unit, got[i].Values[unit], values)
			}
		}
	}
}
