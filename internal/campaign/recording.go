package campaign

import (
	"encoding/json"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
)

// The files a campaign is recorded in, beside its report, which Replay
// reads back: its windows and each count it took.
const (
	WindowsFile      = "windows.csv"
	InstructionsFile = "instructions.csv"
	TrafficFile      = "traffic.csv"
	LocksFile        = "locks.csv"
	// ConstantsFile holds the machine's own constants, where the
	// predictions within the cores used them.
	ConstantsFile = "constants.json"
)

// Recording is the campaign's files for the cells named, each once: the
// windows (measured on a machine of r.Cores cores) and the counts taken.
func (r *Result) Recording(cells []string) map[string][]byte {
	out := map[string][]byte{WindowsFile: ab.WriteWindows(cells, r.Windows, r.Cores)}
	if len(r.Counts) > 0 {
		out[InstructionsFile] = abcount.WriteInstructions(cells, r.Counts)
	}
	if len(r.Traffic) > 0 {
		out[TrafficFile] = abcount.WriteTraffic(cells, r.Traffic)
	}
	if len(r.Profiles) > 0 {
		out[LocksFile] = abcount.WriteLocks(cells, r.Profiles)
	}
	if r.Own != nil {
		if data, err := json.MarshalIndent(r.Own, "", "  "); err == nil {
			out[ConstantsFile] = append(data, '\n')
		}
	}
	return out
}
