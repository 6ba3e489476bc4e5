package harness

import (
	"context"
	"fmt"
)

// Driver measures cells one window at a time, when asked: what an arm
// process of an A/B comparison does, so that the comparison can measure
// one cell in every arm within a fraction of a second and whatever the
// machine does then lands on all of them (see internal/ab). Every window is
// followed by the speed and floor probes, as in a run.
type Driver struct {
	r      *runner
	cells  []Cell
	byName map[string]Cell
	count  map[string]int // windows measured so far, by cell
}

// NewDriver prepares cells for measurement with opts' window, warm-up,
// seed, corpus and pinning; rounds, quarantine and precision do not apply.
func NewDriver(cells []Cell, opts Options) *Driver {
	d := &Driver{r: newRunner(cells, opts), cells: cells, byName: make(map[string]Cell), count: make(map[string]int)}
	for _, c := range cells {
		d.byName[c.Name()] = c
	}
	return d
}

// Setup sets every cell up (corpus made, stores filled, allocations
// counted) and the probe, so nothing but windows runs between windows. A
// cell whose store lacks what its workload needs is left out and named in
// the outcome's Unsupported.
func (d *Driver) Setup(ctx context.Context) error {
	for _, c := range d.cells {
		var err error
		if c.Command != nil {
			_, err = d.r.commandSetup(c)
		} else {
			_, err = d.r.instance(c)
		}
		if err != nil {
			if _, skip := d.r.setBack(ctx, c, err); skip {
				continue
			}
			return err
		}
	}
	var err error
	d.r.prober, err = newProber(d.r.opts.Seed, d.r.cpus)
	return err
}

// Cells are the cells the driver can measure: those set up.
func (d *Driver) Cells() []Cell {
	var out []Cell
	for _, c := range d.cells {
		if _, ok := d.r.res.Unsupported[c.Name()]; !ok {
			out = append(out, c)
		}
	}
	return out
}

// Window measures the named cell once, with its probes, and keeps the
// sample in the outcome.
func (d *Driver) Window(ctx context.Context, name string) (Sample, error) {
	c, ok := d.byName[name]
	if !ok {
		return Sample{}, fmt.Errorf("no cell %s here", name)
	}
	s, err := d.r.window(ctx, c, d.count[name])
	if err != nil {
		return Sample{}, err
	}
	d.count[name]++
	d.r.res.Samples = append(d.r.res.Samples, s)
	return s, nil
}

// Outcome is what the driver measured so far.
func (d *Driver) Outcome() *Outcome { return d.r.finish() }
