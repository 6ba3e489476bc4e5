package records

import (
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Parallelism is the machine's delivered parallelism by thread count, p(n):
// the control cell's median throughput at n threads over its median at one
// thread. A perfectly parallel workload on n free cores gives n; the gap
// is what the host and other processes took. Empty when the set has no
// control cells (results from before they existed, or go test -bench).
func (s *Set) Parallelism() map[int]float64 {
	ops := Tidy(OpsPerSec)
	med := make(map[int]float64)
	for _, c := range s.cells {
		if c.IsControl() && len(c.Values[ops]) > 0 {
			med[c.Threads] = Summarize(c.Values[ops]).Median
		}
	}
	out := make(map[int]float64)
	if one := med[1]; one > 0 {
		for n, m := range med {
			out[n] = m / one
		}
	}
	return out
}

// ConfigOf is a record's configuration value for key as it means it:
// without the spaces around it, which Go's cpu: line ends in and a copy
// of the file may have lost.
func ConfigOf(r *benchfmt.Result, key string) string {
	return strings.TrimSpace(r.GetConfig(key))
}

// MachineOf names the machine a record was measured on: its "machine"
// configuration (run -label machine=X), else its cpu and cores, else its
// cpu alone (go test -bench writes no cores line).
func MachineOf(r *benchfmt.Result) string {
	if m := ConfigOf(r, "machine"); m != "" {
		return m
	}
	cpu := ConfigOf(r, "cpu")
	if cpu == "" {
		cpu = "unknown machine"
	}
	if cores := ConfigOf(r, "cores"); cores != "" {
		return cpu + " ×" + cores
	}
	return cpu
}

// Machine names the machine of the set's first record (MachineOf).
func (s *Set) Machine() string {
	if s.first == nil {
		return ""
	}
	return MachineOf(s.first)
}
