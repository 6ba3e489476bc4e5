package workloads

import "math/rand/v2"

// Control is the machine's own measurement, not a store's: each worker
// hashes and chases pointers through a private table in its core's L2
// cache (256 KiB: past L1, clear of the memory system), an instruction mix
// like a lookup's, with nothing
// shared between workers. Its throughput at n threads over one thread is
// the parallelism the machine delivered, p(n): n on a quiet machine with n
// free cores, less when the host or another process takes a core. The
// harness measures it beside the real cells in every round.
var Control = Workload{
	Name:        "control",
	Title:       "Control",
	Description: "perfectly parallel private work: the parallelism the machine delivers",
	Hidden:      true,
	Setup: func(env Env) (*Instance, error) {
		c := &control{seed: env.Seed}
		return &Instance{Worker: c.worker}, nil
	},
}

// controlEntries sizes each worker's table: 256 KiB of uint32, within a
// core's own cache, since larger tables measure the neighbours' use of the
// shared caches more than the cores, and the control exists to measure
// cores (results/notes.md, "The control's table").
const controlEntries = 1 << 16

// chasesPerOp makes one control operation cost about as much as a
// lookup's probe: eight dependent loads, each followed by a hash step.
const chasesPerOp = 8

type control struct {
	seed   uint64
	tables []*controlTable // by worker, made on first use and kept
}

// controlTable is one worker's private state: a single random cycle
// through the table (Sattolo's shuffle), so the chase visits every entry
// in an order the prefetcher cannot guess; the position and hash live in
// the padded slot between batches.
type controlTable struct {
	next  []uint32
	state padded[[2]uint64]
}

func (c *control) worker(w int) Op {
	for len(c.tables) <= w {
		c.tables = append(c.tables, newControlTable(c.seed, uint64(len(c.tables))))
	}
	t := c.tables[w]
	return func(n int) error {
		next := t.next
		x, h := t.state.v[0], t.state.v[1]
		for range n * chasesPerOp {
			x = uint64(next[x])
			h = (h ^ x) * 0x9e3779b97f4a7c15
			h ^= h >> 29
		}
		t.state.v = [2]uint64{x, h}
		return nil
	}
}

func newControlTable(seed, w uint64) *controlTable {
	next := make([]uint32, controlEntries)
	for i := range next {
		next[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(seed, 0xc0de+w))
	for i := len(next) - 1; i > 0; i-- {
		j := r.IntN(i)
		next[i], next[j] = next[j], next[i]
	}
	return &controlTable{next: next}
}
