package harness

import (
	"context"
	"fmt"
	"os"

	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// commandCell is what a command cell needs across windows: the
// directory its {corpus} names and the time its {at} gives.
type commandCell struct {
	dir string
	at  int64
}

// commandSetup writes the cell's corpus directory on first use.
func (r *runner) commandSetup(c Cell) (*commandCell, error) {
	key := c.setupKey()
	if cc, ok := r.commands[key]; ok {
		return cc, nil
	}
	cc := &commandCell{}
	if c.Command.UsesCorpus() {
		co, err := r.opts.Corpus(c.Params.Int("certs"))
		if err != nil {
			return nil, fmt.Errorf("cell %s: corpus: %w", c.Name(), err)
		}
		r.res.Corpora[co.Source] = co.Digest
		cc.at = co.At.Unix()
		if cc.dir, err = foreign.WriteCorpus(co, c.Params.Float("hit"), workloads.LeafLimit(c.Params)); err != nil {
			return nil, fmt.Errorf("cell %s: %w", c.Name(), err)
		}
	}
	r.commands[key] = cc
	return cc, nil
}

// removeCommandDirs removes every corpus directory the run wrote.
func (r *runner) removeCommandDirs() {
	for _, cc := range r.commands {
		if cc.dir != "" {
			os.RemoveAll(cc.dir)
		}
	}
}

// commandWindow runs a command cell once: its own timing is the window's
// ns/call; perfrun adds what it sees of the machine around it (the
// hypervisor's steal over the command's wall time, and the child's CPU
// time against threads × wall, which falls when a thread waited for a
// CPU or the command spent its time starting up).
func (r *runner) commandWindow(ctx context.Context, c Cell, cc *commandCell) ([]workloads.Metric, error) {
	args := c.Command.Expand(c.Threads, cc.dir, cc.at)
	steal0, stealOK := stealTime()
	o, err := foreign.Run(ctx, args)
	steal1, _ := stealTime()
	if err != nil {
		return nil, err
	}
	ns, err := c.Command.Time(o.Stdout)
	if err != nil {
		return nil, fmt.Errorf("%s %w%s", args[0], err, foreign.Tail(o.Stdout))
	}
	wall := o.Wall
	t := float64(c.Threads)
	out := []workloads.Metric{
		{Value: ns / t, Unit: records.NsPerOp},
		{Value: ns, Unit: records.NsPerCall},
		{Value: t / ns * 1e9, Unit: records.OpsPerSec},
		{Value: wall.Seconds(), Unit: commandWall},
	}
	if cpu, ok := childCPU(o.State); ok {
		out = append(out, workloads.Metric{Value: cpu.Seconds() / (wall.Seconds() * t), Unit: commandCPU})
	}
	if stealOK {
		out = append(out, stealMetric(steal1-steal0, wall))
	}
	return out, nil
}

// Units only a command's windows have.
const (
	commandWall = "command-sec"      // the command's wall time, start-up included
	commandCPU  = "command-cpu-frac" // its CPU time over threads × wall
)
