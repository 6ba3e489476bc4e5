package abcount

import (
	"cmp"
	"context"
	"fmt"

	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// Arm is a revision as ab counts its instructions: a binary with its
// symbol table and the arm's environment.
type Arm struct {
	Bin string
	Env []string
}

// Counts are each cell's instructions/op, by name: base's processes' and
// head's.
type Counts map[string][2][]float64

// Traffic are each cell's cache misses and system calls per operation
// (callgrind.Traffic), by name: base's processes' and head's, counted in
// the processes that counted its instructions.
type Traffic map[string][2][]callgrind.Traffic

// Instructions counts instructions/op of every cell in base's and head's
// binary, on the same corpus (seed) and the same number of operations,
// telling progress of each cell as it starts: exactly where each side's
// processes agree. One process a side first; where the two revisions'
// counts differ beyond an exact count's tolerance, or their system calls
// do (sameSyscalls), a second a side tells an exact change from counts
// that vary between processes, and counts that vary get
// InstructionSample a side. Two processes run at once:
// nothing is timed while they run, and a count does not depend on the
// machine's load.
func Instructions(ctx context.Context, progress func(Cell), base, head Arm, cells []Cell, seed uint64) (Counts, Traffic, error) {
	out, traffic := make(Counts), make(Traffic)
	for _, c := range cells {
		argv := append(slices.Clone(c.Args), "-ops", strconv.Itoa(c.Ops), "-seed", strconv.FormatUint(seed, 10))
		progress(c)
		var counts [2][]float64
		var t [2][]callgrind.Traffic
		for _, want := range []int{1, 2, compare.InstructionSample} {
			if err := countBoth(ctx, base, head, argv, c.Ops, want, &counts, &t); err != nil {
				return nil, nil, fmt.Errorf("counting instructions of %s: %w", c.Name, err)
			}
			if settled(counts, want) && (want > 1 || sameSyscalls(t)) {
				break
			}
		}
		out[c.Name], traffic[c.Name] = counts, t
	}
	return out, traffic, nil
}

// Cell is a cell ab counts: its cell-ops flags and how many operations a
// count runs.
type Cell struct {
	Name string
	Args []string
	Ops  int
}

// Cells are the single-threaded store cells ab counts, each with its
// workload's operations for a count (harness.CountOps), the same in every
// campaign whatever its windows measured. A command cell (-exec, named in
// commands) is no store of perfrun's to count.
func Cells(cells []*records.Cell, commands []string) []Cell {
	var out []Cell
	for _, c := range cells {
		args, ok := CellOpsArgs(c)
		if !ok || c.Threads != 1 || slices.Contains(commands, c.Impl) {
			continue
		}
		w, err := workloads.Lookup(args[1])
		if err != nil {
			continue // no workload of this perfrun's: nothing it can run
		}
		out = append(out, Cell{c.Name, args, harness.CountOps(w, 1)})
	}
	return out
}

// InstructionVerdicts judges the counts of each cell (base's, head's) at
// the time threshold, in the order of names.
func InstructionVerdicts(th compare.Thresholds, names []string, counts Counts) []compare.CellVerdict {
	return verdicts(th, names, counts, func(th compare.Thresholds, name string, c [2][]float64) []compare.CellVerdict {
		return []compare.CellVerdict{compare.InstructionVerdict(name, c[0], c[1], th)}
	})
}

// instructionsFile is the file of every process's instructions/op: what
// ab -report writes beside windows.csv, and -replay judges again.
var instructionsFile = countFile[float64]{
	what: "an instructions file", count: "a count", columns: []string{"instructions/op"},
	format: func(v float64) []string { return []string{countText(v)} },
	parse: func(columns []string) (float64, bool) {
		v, ok := parseCounts(columns)
		if !ok {
			return 0, false
		}
		return v[0], v[0] > 0 // a process that ran counts something
	},
}

// WriteInstructions is every count of a comparison, one row each.
func WriteInstructions(names []string, counts Counts) []byte {
	return instructionsFile.write(names, counts)
}

// ReadInstructions reads an instructions file as untrusted input.
func ReadInstructions(data []byte) ([]string, Counts, error) {
	names, counts, err := instructionsFile.read(data)
	return names, counts, err
}

// settled says whether counts of want processes a side decide: one a side
// that agree exactly, or each side's processes agreeing among themselves.
func settled(counts [2][]float64, want int) bool {
	if want == 1 {
		return compare.ExactCount(append(append([]float64(nil), counts[0]...), counts[1]...))
	}
	return want >= compare.InstructionSample || compare.ExactCount(counts[0]) && compare.ExactCount(counts[1])
}

// sameSyscalls says whether one process a side counted the same system
// calls an operation, within compare.TrafficFloor; else a second process
// a side tells the code's calls from those the host's timing added
// (TrafficVerdicts).
func sameSyscalls(t [2][]callgrind.Traffic) bool {
	return len(t[0]) > 0 && len(t[1]) > 0 && math.Abs(t[0][0].Syscalls-t[1][0].Syscalls) < compare.TrafficFloor
}

// countBoth counts each side up to want processes, two at a time.
func countBoth(ctx context.Context, base, head Arm, argv []string, n, want int, counts *[2][]float64, traffic *[2][]callgrind.Traffic) error {
	type job struct{ side int }
	var jobs []job
	for side := range 2 {
		for range want - len(counts[side]) {
			jobs = append(jobs, job{side})
		}
	}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, j := range jobs {
		arm := []Arm{base, head}[j.side]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, t, err := callgrind.CountTraffic(ctx, append([]string{arm.Bin, "cell-ops"}, argv...), arm.Env)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				return
			}
			counts[j.side] = append(counts[j.side], c/float64(n))
			per := float64(n)
			traffic[j.side] = append(traffic[j.side], callgrind.Traffic{L1Misses: t.L1Misses / per, LLMisses: t.LLMisses / per, Syscalls: t.Syscalls / per})
		}()
	}
	wg.Wait()
	return firstErr
}

// CellOpsArgs are the cell-ops flags that name a store cell (workload,
// implementation, parameters); false for a cell no store measures.
func CellOpsArgs(c *records.Cell) ([]string, bool) {
	if c.Impl == "" || c.IsReference() {
		return nil, false
	}
	parts := strings.Split(c.Name, "/")
	args := []string{"-workload", strings.ToLower(parts[0]), "-impl", c.Impl}
	for _, kv := range parts[1:] {
		k, _, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
			return nil, false
		case k == "impl" || k == "threads":
		default:
			args = append(args, "-param", kv)
		}
	}
	return args, true
}

// Explain adds to each time verdict of a single-threaded cell what its
// instructions say: the instruction verdict explains the time verdict
// (unchanged instructions beside a slower time: memory, layout or the
// machine, not work added).
func Explain(rep *compare.Report, instr []compare.CellVerdict) {
	byName := make(map[string]compare.CellVerdict)
	for _, c := range instr {
		byName[c.Name] = c
	}
	for i := range rep.Cells {
		c := &rep.Cells[i]
		ic, ok := byName[c.Name]
		if !ok || c.Unit == records.Instructions || ic.Ratio == 0 {
			continue
		}
		change := 100 * (ic.Ratio - 1)
		switch {
		case ic.Verdict == compare.Inconclusive:
		case math.Abs(change) < 0.05 && c.Verdict != compare.Pass:
			c.Reason += fmt.Sprintf("; instructions unchanged (%+.2f%%)", change)
		case math.Abs(change) >= 0.05:
			c.Reason += fmt.Sprintf("; instructions %+.2f%%", change)
		}
	}
}
