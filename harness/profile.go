package harness

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/google/pprof/profile"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// Profiles asks for pprof profiles of each cell, taken in one extra window
// right after the cell's first-round sample: profiling slows what it
// watches, so it never runs inside a window that becomes a sample.
type Profiles struct {
	// CPU, Mutex and Block name the folders for each kind; "" for none.
	CPU, Mutex, Block string
	// Write stores one profile file (the CLI's writer, which never
	// follows a link planted in a folder).
	Write func(path string, data []byte) error
}

func (p Profiles) any() bool { return p.CPU != "" || p.Mutex != "" || p.Block != "" }

// profile measures the cell once more with the asked profilers on and
// writes one file per profiler into its folder: STEM.cpu.pprof,
// STEM.mutex.pprof, STEM.block.pprof, STEM the cell's name as a file stem. The mutex and
// block profiles are cumulative in the runtime, so each file holds the
// difference across the window (pprof's -base, done here).
func (r *runner) profile(ctx context.Context, c Cell, inst *workloads.Instance) error {
	p := r.opts.Profiles
	var cpu bytes.Buffer
	if p.CPU != "" {
		if err := pprof.StartCPUProfile(&cpu); err != nil {
			return err
		}
	}
	var mutex0, block0 *profile.Profile
	var err error
	if p.Mutex != "" {
		defer runtime.SetMutexProfileFraction(runtime.SetMutexProfileFraction(1))
		if mutex0, err = snapshot("mutex"); err != nil {
			return err
		}
	}
	if p.Block != "" {
		runtime.SetBlockProfileRate(1)
		defer runtime.SetBlockProfileRate(0)
		if block0, err = snapshot("block"); err != nil {
			return err
		}
	}
	runtime.GC()
	_, err = measure(ctx, inst, c.Threads, r.opts.Warmup, r.opts.Window, r.mem[c.setupKey()], r.cpus)
	if p.CPU != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	stem := records.FileStem(c.Name())
	if p.CPU != "" {
		if err := p.Write(filepath.Join(p.CPU, stem+".cpu.pprof"), cpu.Bytes()); err != nil {
			return err
		}
	}
	for _, d := range []struct {
		name, dir string
		base      *profile.Profile
	}{{"mutex", p.Mutex, mutex0}, {"block", p.Block, block0}} {
		if d.base == nil {
			continue
		}
		b, err := since(d.name, d.base)
		if err != nil {
			return err
		}
		if err := p.Write(filepath.Join(d.dir, stem+"."+d.name+".pprof"), b); err != nil {
			return err
		}
	}
	return nil
}

// snapshot reads one of the runtime's cumulative profiles.
func snapshot(name string) (*profile.Profile, error) {
	var b bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&b, 0); err != nil {
		return nil, err
	}
	return profile.Parse(&b)
}

// since returns the named profile now less base, encoded as pprof writes
// it, without the call stacks that did not change.
func since(name string, base *profile.Profile) ([]byte, error) {
	now, err := snapshot(name)
	if err != nil {
		return nil, err
	}
	base.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{now, base})
	if err != nil {
		return nil, fmt.Errorf("%s profile: %w", name, err)
	}
	kept := d.Sample[:0]
	for _, s := range d.Sample {
		for _, v := range s.Value {
			if v != 0 {
				kept = append(kept, s)
				break
			}
		}
	}
	d.Sample = kept
	var out bytes.Buffer
	if err := d.Write(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
