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

// A small runner's two virtual CPUs are not always the same pair of
// physical cores: for a while its host may give them a pair where a line
// moves between them fast, and then one where it moves many times slower
// (results/scaling/runner/placement has the runner's). A change whose cost
// is a shared line costs at 2 threads what the pair charges, so a reader of
// windows keeps those of one pair, told by each window's TransferProbe.
const (
	// pairsApart is how many times apart two windows' transfers are
	// where their threads ran on different pairs of cores.
	pairsApart = 2.0
	// pairSlack is added to each transfer before they are compared, so
	// that two windows of a near pair, a few nanoseconds apart in tens,
	// are not apart, nor a probe of an earlier perfrun, whose one write
	// read a near pair to the clock's step.
	pairSlack = 20e-9
)

// OtherPair says whether a window whose TransferProbe read t seconds ran
// on another pair of cores than windows that read ref: the two, each with
// pairSlack added, more than pairsApart times apart.
func OtherPair(t, ref float64) bool {
	r := (t + pairSlack) / (ref + pairSlack)
	return r > pairsApart || r < 1/pairsApart
}
