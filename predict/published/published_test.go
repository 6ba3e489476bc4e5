package published

import (
	"math"
	"testing"
)

// TestTheTablesReadBack: the embedded tables read back to the published
// figures (before: 2 434.803 ns at 1 thread, 37 816.247 at 16). That they
// are results/published/pr28599.txt is the results module's test to hold
// (results/published/evidence_test.go).
func TestTheTablesReadBack(t *testing.T) {
	set, err := PR28599()
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := Scaling(set, "pr28599-before", 16); !ok || math.Abs(r-37816.247/2434.803) > 1e-9 {
		t.Errorf("before at 16: %v, %v; want %v", r, ok, 37816.247/2434.803)
	}
	for impl, s := range StandsFor {
		if _, ok := Scaling(set, s.Impl, 16); !ok {
			t.Errorf("%s stands for %s, which has no 16-thread row", impl, s.Impl)
		}
	}
	if _, ok := Scaling(set, "pr28599-before", 3); ok {
		t.Error("a thread count the table does not have was given a scaling")
	}
}
