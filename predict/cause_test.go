package predict

import (
	"strings"
	"testing"
)

// TestCauseNamesWhatTheModelWaitsOn: a cell with a long exclusive lock is
// said to wait for it, one whose atomics write a shared line to wait for
// the line, one with neither to work alone; each with the counts read.
func TestCauseNamesWhatTheModelWaitsOn(t *testing.T) {
	k := Constants{Handoff: 200e-9, Transfer: 60e-9}
	for _, tc := range []struct {
		c    Cell
		want string
	}{
		{Cell{Name: "sorted", PerCall: 800e-9, Instructions: 2000, ExclusiveLocks: 1, LockedInstructions: 1811, Atomics: 2},
			"one exclusive lock a call, held 1 811 instructions each"},
		{Cell{Name: "hashmap", PerCall: 600e-9, Instructions: 1800, Atomics: 4},
			"4.00 atomic writes a call to lines other threads write"},
		{Cell{Name: "rcu", PerCall: 600e-9, Instructions: 1800},
			"no lock or shared line to wait on: 100% of a call at 16 threads is each thread's own work"},
	} {
		got, err := CauseOf(tc.c, k, 16)
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.c.Name, got, err, tc.want)
		}
	}
	if _, err := CauseOf(Cell{Name: "empty"}, k, 16); err == nil {
		t.Error("a cell with no counts was given a cause")
	}
}
