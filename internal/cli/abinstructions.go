package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/records"
)

// countingArm is a revision as ab counts its instructions: a binary with
// its symbol table and the arm's environment.
type countingArm struct {
	bin string
	env []string
}

// abInstructions counts instructions/op of every single-threaded store
// cell in base's and head's binary, on the same corpus and the same number
// of operations (InstructionBudget at base's measured speed), and
// compares them at the time threshold: exactly where each side's processes
// agree. One process a side first; where the two revisions' counts differ
// beyond an exact count's tolerance, a second a side tells an exact change
// from counts that vary between processes, and counts that vary get
// InstructionSample a side. Two processes run at once: nothing is timed
// while they run, and a count does not depend on the machine's load.
func (a *abOptions) abInstructions(ctx context.Context, stderr io.Writer, base, head countingArm, cells []*records.Cell, arms map[string]compare.Arms) (map[string][2][]float64, error) {
	out := make(map[string][2][]float64)
	for _, c := range a.countedCells(cells, arms) {
		argv := append(c.args, "-ops", strconv.Itoa(c.ops), "-seed", strconv.FormatUint(a.seed, 10))
		if !a.quiet {
			fmt.Fprintf(stderr, "perfrun: ab: counting instructions of %s in both revisions (%d ops under callgrind)\n", c.name, c.ops)
		}
		var counts [2][]float64
		for _, want := range []int{1, 2, compare.InstructionSample} {
			if err := countBoth(ctx, base, head, argv, c.ops, want, &counts); err != nil {
				return nil, fmt.Errorf("counting instructions of %s: %w", c.name, err)
			}
			if settled(counts, want) {
				break
			}
		}
		out[c.name] = counts
	}
	return out, nil
}

// countedCell is a cell ab counts: its cell-ops flags and how many
// operations a count runs.
type countedCell struct {
	name string
	args []string
	ops  int
}

// countedCells are the single-threaded store cells ab counts, each with
// InstructionBudget of operations at base's measured speed. A command
// cell (-exec) is no store of perfrun's to count.
func (a *abOptions) countedCells(cells []*records.Cell, arms map[string]compare.Arms) []countedCell {
	var out []countedCell
	cmds, _ := a.cmd.commands()
	for _, c := range cells {
		args, ok := cellOpsArgsOf(c)
		if !ok || c.Threads != 1 || slices.ContainsFunc(cmds, func(cmd *harness.Command) bool { return cmd.Name == c.Impl }) {
			continue
		}
		ns := 1e9 * records.Median(slices.Collect(maps.Values(arms[c.Name].Base)))
		if !(ns > 0) {
			// The machine set every window aside: size the count as for a
			// lookup of a microsecond. A count is per operation, so its
			// length changes only how long callgrind runs.
			ns = 1000
		}
		out = append(out, countedCell{c.Name, args, callgrind.Round(int(float64(harness.InstructionBudget.Nanoseconds())/ns), 1)})
	}
	return out
}

// instructionVerdicts judges the counts of each cell (base's, head's) at
// the time threshold, in the order of names.
func instructionVerdicts(th compare.Thresholds, names []string, counts map[string][2][]float64) []compare.CellVerdict {
	th.InstructionsRatio = th.MinEffect
	var out []compare.CellVerdict
	for _, name := range names {
		if c, ok := counts[name]; ok {
			out = append(out, compare.InstructionVerdict(name, c[0], c[1], th))
		}
	}
	return out
}

// instructionsHeader is the first row of an instructions file: what ab
// -report writes beside windows.csv, and -replay judges again.
var instructionsHeader = []string{"cell", "arm", "instructions/op"}

// writeInstructions is every count of a comparison, one row each.
func writeInstructions(names []string, counts map[string][2][]float64) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(instructionsHeader)
	for _, name := range names {
		for side, arm := range []string{compare.ArmBase, compare.ArmHead} {
			for _, v := range counts[name][side] {
				w.Write([]string{name, arm, strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	w.Flush()
	return b.Bytes()
}

// readInstructions reads an instructions file as untrusted input.
func readInstructions(data []byte) (names []string, counts map[string][2][]float64, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = len(instructionsHeader)
	rows, err := r.ReadAll()
	if err != nil || len(rows) == 0 || !slices.Equal(rows[0], instructionsHeader) {
		return nil, nil, fmt.Errorf("not an instructions file of perfrun ab (%w)", err)
	}
	counts = make(map[string][2][]float64)
	for i, row := range rows[1:] {
		v, err := strconv.ParseFloat(row[2], 64)
		side := slices.Index([]string{compare.ArmBase, compare.ArmHead}, row[1])
		if err != nil || !(v > 0) || math.IsInf(v, 0) || side < 0 || !ab.CellName(row[0]) {
			return nil, nil, fmt.Errorf("line %d: %q is not a count", i+2, row)
		}
		c, ok := counts[row[0]]
		if !ok {
			names = append(names, row[0])
		}
		c[side] = append(c[side], v)
		counts[row[0]] = c
	}
	return names, counts, nil
}

// settled says whether counts of want processes a side decide: one a side
// that agree exactly, or each side's processes agreeing among themselves.
func settled(counts [2][]float64, want int) bool {
	if want == 1 {
		return compare.ExactCount(append(append([]float64(nil), counts[0]...), counts[1]...))
	}
	return want >= compare.InstructionSample || compare.ExactCount(counts[0]) && compare.ExactCount(counts[1])
}

// countBoth counts each side up to want processes, two at a time.
func countBoth(ctx context.Context, base, head countingArm, argv []string, n, want int, counts *[2][]float64) error {
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
		arm := []countingArm{base, head}[j.side]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := harness.Count(ctx, append([]string{arm.bin, "cell-ops"}, argv...), arm.env)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				return
			}
			counts[j.side] = append(counts[j.side], c/float64(n))
		}()
	}
	wg.Wait()
	return firstErr
}

// cellOpsArgsOf are the cell-ops flags that name a store cell (workload,
// implementation, parameters); false for a cell no store measures.
func cellOpsArgsOf(c *records.Cell) ([]string, bool) {
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

// explain adds to each time verdict of a single-threaded cell what its
// instructions say: the instruction verdict explains the time verdict
// (unchanged instructions beside a slower time: memory, layout or the
// machine, not work added).
func explain(rep *compare.Report, instr []compare.CellVerdict) {
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
