package harness_test

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// TestPlanCostOnModelsOnly: a swept cost makes a cell per value for a
// model, while a real store and a command, which do their own work, get
// one cell each whose name carries no cost.
func TestPlanCostOnModelsOnly(t *testing.T) {
	sweep, err := harness.ParseSweep([]string{"cost=own,openssl", "certs=32"})
	if err != nil {
		t.Fatal(err)
	}
	sorted, _ := impls.Lookup("sorted")
	real := store.Impl{Name: "realstore", Rule: store.IgnoresCAFlags}
	cells, err := harness.Plan([]store.Impl{sorted, real}, []workloads.Workload{workloads.Issuer}, sweep, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		names = append(names, c.Name())
	}
	want := []string{"Issuer/impl=sorted/certs=32/hit=1/threads=1", "Issuer/impl=sorted/certs=32/hit=1/cost=openssl/threads=1", "Issuer/impl=realstore/certs=32/hit=1/threads=1"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("cells %v, want %v", names, want)
	}
	cmd := &foreign.Command{Name: "tool", Args: []string{"tool", "{corpus}", "{threads}"}}
	ccells, err := harness.PlanCommands([]*foreign.Command{cmd}, []workloads.Workload{workloads.Issuer}, sweep, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ccells) != 1 || strings.Contains(ccells[0].Name(), "cost") {
		t.Errorf("command cells %v, want one without a cost", ccells)
	}
}
