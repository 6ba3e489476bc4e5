package abcount

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/scaling"
)

// TrafficVerdicts judges each cell's cache misses and system calls
// (base's, head's) at the time threshold, in the order of names: one
// verdict a unit of records.TrafficUnits.
func TrafficVerdicts(th compare.Thresholds, names []string, traffic Traffic) []compare.CellVerdict {
	th.InstructionsRatio = th.MinEffect
	var out []compare.CellVerdict
	for _, name := range names {
		t, ok := traffic[name]
		if !ok {
			continue
		}
		for i, unit := range records.TrafficUnits {
			var sides [2][]float64
			for side := range 2 {
				for _, v := range t[side] {
					sides[side] = append(sides[side], trafficValue(v, i))
				}
				if unit == records.Syscalls && len(sides[side]) > 1 {
					// A system call the code makes is in every process's
					// count; one the host's timing adds (a runtime's wait
					// booked to the lookup) in some: the fewest a side
					// counted are the code's.
					sides[side] = []float64{slices.Min(sides[side])}
				}
			}
			out = append(out, compare.TrafficVerdict(name, unit, sides[0], sides[1], th))
		}
	}
	return out
}

// trafficValue is the i-th unit of records.TrafficUnits of t.
func trafficValue(t callgrind.Traffic, i int) float64 {
	return [...]float64{t.L1Misses, t.LLMisses, t.Syscalls}[i]
}

// trafficHeader is the first row of a traffic file: what ab -report
// writes beside windows.csv, and -replay judges again.
var trafficHeader = append([]string{"cell", "arm"}, records.TrafficUnits...)

// WriteTraffic is every traffic count of a comparison, one row a
// process.
func WriteTraffic(names []string, traffic Traffic) []byte {
	return writePerProcess(trafficHeader, names, traffic, func(t callgrind.Traffic) []string {
		var row []string
		for i := range records.TrafficUnits {
			row = append(row, strconv.FormatFloat(trafficValue(t, i), 'g', -1, 64))
		}
		return row
	})
}

// ReadTraffic reads a traffic file as untrusted input: a count that is
// negative or not finite, a row of no arm, or a cell without both arms'
// counts refuses it.
func ReadTraffic(data []byte) (names []string, traffic Traffic, err error) {
	rows, err := readRows(data, trafficHeader, "a traffic file")
	if err != nil {
		return nil, nil, err
	}
	traffic = make(Traffic)
	for i, row := range rows {
		side := slices.Index(sides[:], row[1])
		var v [3]float64
		ok := side >= 0 && ab.CellName(row[0])
		for k := range v {
			var err error
			v[k], err = strconv.ParseFloat(row[2+k], 64)
			ok = ok && err == nil && v[k] >= 0 && !math.IsInf(v[k], 0)
		}
		if !ok {
			return nil, nil, fmt.Errorf("line %d: %q is not a count", i+2, row)
		}
		t, seen := traffic[row[0]]
		if !seen {
			names = append(names, row[0])
		}
		t[side] = append(t[side], callgrind.Traffic{L1Misses: v[0], LLMisses: v[1], Syscalls: v[2]})
		traffic[row[0]] = t
	}
	if err := bothArms(names, traffic); err != nil {
		return nil, nil, err
	}
	return names, traffic, nil
}

// CountUnits are the units every count of a design must give, each a
// PASS, before its undecided time is a PASS by counts
// (compare.Report.PassByCounts): instructions, cache misses and system
// calls, the gated lock units and, when ab predicts, the prediction at
// predictThreads.
func CountUnits(predictThreads int) []string {
	need := append([]string{records.Instructions}, records.TrafficUnits...)
	need = append(need, records.ExclusiveLocks, records.LockedInstructions, records.Atomics)
	if predictThreads > 0 {
		need = append(need, scaling.Unit(predictThreads))
	}
	return need
}
