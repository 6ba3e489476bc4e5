package harness

import (
	"context"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// The speed probe runs the control cell's work (private tables in each
// core's L2 cache, nothing shared) for probeWindow right after every
// window, on the window's thread count. The control cell of a round says
// whether the cores were delivered; the probe says how fast they ran at
// the moment the window was measured, which a slow minute of the host
// changes for every process alike while the round's control shows nothing
// (results/notes.md, "The speed and floor probes").
const (
	probeWarmup = 2 * time.Millisecond
	probeWindow = 10 * time.Millisecond
)

// prober holds the control's instance the probes run, set up once.
type prober struct {
	inst *workloads.Instance
	cpus []int
}

func newProber(seed uint64, cpus []int) (*prober, error) {
	inst, err := workloads.Control.Setup(workloads.Env{Seed: seed})
	if err != nil {
		return nil, err
	}
	return &prober{inst: inst, cpus: cpus}, nil
}

// probe measures the machine's speed on threads workers: the control's
// time per call of one worker.
func (p *prober) probe(ctx context.Context, threads int) (workloads.Metric, error) {
	return probeWith(ctx, p.inst, threads, p.cpus, records.Probe)
}

// The floor probe runs the floor of the window's workload (a Go map
// looked up by the same keys) right after the speed probe, on the
// window's threads. The speed probe's work stays in each core's L2 cache
// and misses what slows a lookup most: a host that moves between states
// minutes long in which one-thread lookups and the floor slow together
// while the speed probe and the control barely move (results/notes.md,
// "The speed and floor probes").
//
// floorProbe measures it after a window of c; ok is false for a cell
// whose workload has no floor (or a command's cell with no corpus).
func (r *runner) floorProbe(ctx context.Context, c Cell) (m workloads.Metric, ok bool, err error) {
	w := c.Workload
	switch {
	case c.Command != nil && !c.Command.UsesCorpus():
		return m, false, nil
	case w.Floor != nil:
		w = *w.Floor
	case w.Name != workloads.Floor.Name || c.Command != nil:
		return m, false, nil
	}
	inst, err := r.instance(Cell{Workload: w, Params: declared(w, c.Params), Threads: 1})
	if err != nil {
		return m, false, err
	}
	m, err = probeWith(ctx, inst, c.Threads, r.cpus, records.FloorProbe)
	return m, err == nil, err
}

// probeFloor is floorProbe, or a test's stand-in for it.
func (r *runner) probeFloor(ctx context.Context, c Cell) (workloads.Metric, bool, error) {
	if r.floorStandIn != nil {
		return r.floorStandIn(ctx, c)
	}
	return r.floorProbe(ctx, c)
}

// probeWith measures inst for probeWindow on threads workers and reports
// one worker's time per call as unit.
func probeWith(ctx context.Context, inst *workloads.Instance, threads int, cpus []int, unit string) (workloads.Metric, error) {
	m, err := measure(ctx, inst, threads, probeWarmup, probeWindow, memory{}, cpus)
	if err != nil {
		return workloads.Metric{}, err
	}
	for _, x := range m {
		if x.Unit == records.NsPerCall {
			return workloads.Metric{Value: x.Value, Unit: unit}, nil
		}
	}
	panic("measure reported no " + records.NsPerCall)
}
