package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// hyperfineFile is the part of hyperfine's --export-json that perfrun
// reads: each command's name, its parameters (of --parameter-scan or -L)
// and the wall time of every run, in seconds.
type hyperfineFile struct {
	Results []struct {
		Command    string            `json:"command"`
		Times      []float64         `json:"times"`
		Parameters map[string]string `json:"parameters"`
		ExitCodes  []*int            `json:"exit_codes"`
		Mean       *float64          `json:"mean"`
	} `json:"results"`
}

// readHyperfine reads hyperfine's JSON: one record per run of each
// command, its wall time as sec/op; a command's parameters become name
// keys (/threads=2). Runs that exited non-zero are skipped: their time is
// a failure's. A 0 (a run shorter than the shell's start, which hyperfine
// subtracts) is no time of the command: skipped, with a warning.
func readHyperfine(r io.Reader, file string) (*records.Set, error) {
	var f hyperfineFile
	dec := json.NewDecoder(io.LimitReader(r, 64<<20))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w hyperfine --export-json writes: %w", file, ErrFormat, err)
	}
	if len(f.Results) == 0 {
		return nil, fmt.Errorf("%s: %w hyperfine --export-json writes: no results", file, ErrFormat)
	}
	set := records.New("", file)
	cfg := config("hyperfine", file)
	seen := make(map[string]int)
	for _, res := range f.Results {
		if res.Mean == nil || len(res.Times) == 0 {
			return nil, fmt.Errorf("%s: %w hyperfine --export-json writes: %q has no times", file, ErrFormat, res.Command)
		}
		name := benchName(res.Command)
		keys := make([]string, 0, len(res.Parameters))
		for k := range res.Parameters {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name += "/" + benchName(k) + "=" + benchName(res.Parameters[k])
		}
		// Two commands of one name (hyperfine allows it) stay two cells,
		// numbered as go test numbers two subtests of one name.
		if seen[name]++; seen[name] > 1 {
			set.Warnings = append(set.Warnings, fmt.Errorf("%s: a second command named %q: kept apart as %s#%02d", file, res.Command, name, seen[name]-1))
			name = fmt.Sprintf("%s#%02d", name, seen[name]-1)
		}
		for i, t := range res.Times {
			if i < len(res.ExitCodes) && res.ExitCodes[i] != nil && *res.ExitCodes[i] != 0 {
				continue
			}
			// hyperfine writes 0 for a run shorter than the shell's own
			// start, which it subtracts: no time of the command, skipped
			// and said, as anything negative or not finite is.
			if !(t > 0) || math.IsInf(t, 0) {
				set.Warnings = append(set.Warnings, fmt.Errorf("%s: %q run %d: %v s is not a measurement: skipped", file, res.Command, i+1, t))
				continue
			}
			set.Add(&benchfmt.Result{Config: cfg, Name: benchfmt.Name(name), Iters: 1,
				Values: []benchfmt.Value{records.Value(t*1e9, records.NsPerOp)}})
		}
	}
	if len(set.Records) == 0 {
		return nil, fmt.Errorf("%s: no successful run", file)
	}
	return set, nil
}
