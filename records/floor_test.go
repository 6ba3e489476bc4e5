package records_test

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestFloorOfACostedGroup: a group of models at a cost finds the floor
// measured beside it, which carries no cost; a group of other parameters
// finds none.
func TestFloorOfACostedGroup(t *testing.T) {
	s, err := records.Read(strings.NewReader(`BenchmarkIssuer/impl=sorted/certs=64/hit=1/cost=openssl/threads=1 1 900 ns/op
BenchmarkFloor/certs=64/hit=1/threads=1 1 30 ns/op
`), "r.txt", "r")
	if err != nil {
		t.Fatal(err)
	}
	for group, want := range map[string]bool{"Issuer/certs=64/hit=1/cost=openssl": true, "Issuer/certs=64/hit=1": true, "Issuer/certs=64/hit=0/cost=openssl": false} {
		if f, ok := s.FloorOf(group); ok != want || ok && f.Name != "Floor/certs=64/hit=1/threads=1" {
			t.Errorf("FloorOf(%s) = %v, %v; want found %v", group, f, ok, want)
		}
	}
}
