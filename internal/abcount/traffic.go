package abcount

import (
	"slices"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// TrafficVerdicts judges each cell's cache misses and system calls
// (base's, head's) at the time threshold, in the order of names: one
// verdict a unit of records.TrafficUnits.
func TrafficVerdicts(th compare.Thresholds, names []string, traffic Traffic) []compare.CellVerdict {
	return verdicts(th, names, traffic, func(th compare.Thresholds, name string, t [2][]callgrind.Traffic) []compare.CellVerdict {
		var out []compare.CellVerdict
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
		return out
	})
}

// trafficValue is the i-th unit of records.TrafficUnits of t.
func trafficValue(t callgrind.Traffic, i int) float64 {
	return [...]float64{t.L1Misses, t.LLMisses, t.Syscalls}[i]
}

// trafficFile is the file of every process's cache misses and system
// calls an operation: what ab -report writes beside windows.csv, and
// -replay judges again.
var trafficFile = countFile[callgrind.Traffic]{
	what: "a traffic file", count: "a count", columns: records.TrafficUnits,
	format: func(t callgrind.Traffic) []string {
		var row []string
		for i := range records.TrafficUnits {
			row = append(row, countText(trafficValue(t, i)))
		}
		return row
	},
	parse: func(columns []string) (callgrind.Traffic, bool) {
		v, ok := parseCounts(columns)
		if !ok {
			return callgrind.Traffic{}, false
		}
		return callgrind.Traffic{L1Misses: v[0], LLMisses: v[1], Syscalls: v[2]}, true
	},
}

// WriteTraffic is every traffic count of a comparison, one row a
// process.
func WriteTraffic(names []string, traffic Traffic) []byte {
	return trafficFile.write(names, traffic)
}

// ReadTraffic reads a traffic file as untrusted input: a count that is
// negative or not finite, a row of no arm, or a cell without both arms'
// counts refuses it.
func ReadTraffic(data []byte) ([]string, Traffic, error) {
	names, traffic, err := trafficFile.read(data)
	return names, traffic, err
}

// CountUnits are the units every count of a design must give, each a
// PASS, before its undecided time is a PASS by counts
// (compare.Report.Decide): instructions, cache misses and system
// calls, the gated lock units and, when ab predicts, the prediction at
// predictThreads.
func CountUnits(predictThreads int) []string {
	need := append([]string{records.Instructions}, records.TrafficUnits...)
	need = append(need, records.ExclusiveLocks, records.LockedInstructions, records.Atomics)
	if predictThreads > 0 {
		need = append(need, predict.Unit(predictThreads))
	}
	return need
}
