package harness

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/workloads"
)

// Cell is one measured configuration: an implementation under a workload
// with parameter values, on a number of threads.
type Cell struct {
	Impl     store.Impl
	Workload workloads.Workload
	Params   workloads.Params
	Threads  int
	// Command, if set, is a foreign benchmark measured in this cell's
	// windows instead of the workload; Impl then only names it.
	Command *foreign.Command
}

// Name is the cell's benchmark name without the "Benchmark" prefix, such
// as Issuer/impl=rcu/certs=1024/hit=1/threads=2; benchstat reads each k=v
// as a key to group by.
func (c Cell) Name() string {
	parts := []string{c.Workload.Title}
	if c.Impl.Name != "" { // the control measures the machine, no store
		parts = append(parts, "impl="+c.Impl.Name)
	}
	if len(c.Params) > 0 {
		parts = append(parts, c.Params.String())
	}
	return strings.Join(append(parts, "threads="+strconv.Itoa(c.Threads)), "/")
}

// setupKey identifies what Setup builds: everything but the thread count.
func (c Cell) setupKey() string {
	return c.Workload.Name + "/" + c.Impl.Name + "/" + c.Params.String()
}

// Cores is the number of CPUs perfrun may use.
func Cores() int { return runtime.NumCPU() }

// MaxThreads is the largest thread count a cell may ask for: far past
// any machine perfrun has run on, well short of what the operating system
// refuses (each worker is an OS thread).
const MaxThreads = 1024

// ParseThreads parses a thread list such as "1,2,4,8" or "1-18/2" (1 to 18
// in steps of 2, plus 18 itself), or a mix of both; every count must be
// between 1 and MaxThreads.
func ParseThreads(s string) ([]int, error) {
	var out []int
	seen := make(map[int]bool)
	add := func(n int) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	bad := func() ([]int, error) {
		return nil, fmt.Errorf("bad thread list %q: want counts from 1 to %d like 1,2,4 or ranges like 1-18/2", s, MaxThreads)
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lohi, step, hasStep := strings.Cut(part, "/")
		lo, hi, isRange := strings.Cut(lohi, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		st := 1
		var err3 error
		if hasStep {
			st, err3 = strconv.Atoi(step)
		}
		if err1 != nil || err2 != nil || err3 != nil || a < 1 || b < a || b > MaxThreads || st < 1 || (hasStep && !isRange) {
			return bad()
		}
		// b ≤ MaxThreads and st ≥ 1: the loop cannot overflow.
		for n := a; n <= b; n += st {
			add(n)
		}
		add(b)
	}
	return out, nil
}
