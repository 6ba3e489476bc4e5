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
// changes for every process alike (every design 20–85% slower in one such
// minute here, with the control of the round showing nothing).
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
	m, err := measure(ctx, p.inst, threads, probeWarmup, probeWindow, memory{}, p.cpus)
	if err != nil {
		return workloads.Metric{}, err
	}
	for _, x := range m {
		if x.Unit == records.NsPerCall {
			return workloads.Metric{Value: x.Value, Unit: records.Probe}, nil
		}
	}
	panic("measure reported no " + records.NsPerCall)
}
