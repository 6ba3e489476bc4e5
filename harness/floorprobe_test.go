package harness

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// TestFloorProbeAfterEveryLookupWindow: every window of a workload with a
// floor is followed by the floor probe on its threads, and the control's
// windows (no floor) by none.
func TestFloorProbeAfterEveryLookupWindow(t *testing.T) {
	res := lookupsAtOneAndTwo(t, 2)
	floors := 0
	for i := range res.Samples {
		s := &res.Samples[i]
		v, ok := metric(s, records.FloorProbe)
		switch {
		case isControl(s.Cell) && ok:
			t.Errorf("%s: a floor probe (%v) after the control, which has no floor", s.Cell.Name(), v)
		case !isControl(s.Cell) && !(ok && v > 0):
			t.Errorf("%s round %d: floor probe %v, %v; want one after every window", s.Cell.Name(), s.Round, v, ok)
		case ok:
			floors++
		}
	}
	if floors != 4 {
		t.Errorf("%d floor probes, want 4 (2 cells × 2 rounds)", floors)
	}
}

// lookupsAtOneAndTwo runs a design's lookups at 1 and 2 threads for
// rounds short rounds, nothing set aside, with the probes after each
// window.
func lookupsAtOneAndTwo(t *testing.T, rounds int) *Outcome {
	t.Helper()
	p, err := workloads.Issuer.Resolve(map[string]string{"certs": "64"})
	if err != nil {
		t.Fatal(err)
	}
	var cs []Cell
	for _, th := range []int{1, 2} {
		cs = append(cs, Cell{Impl: impls.All()[0], Workload: workloads.Issuer, Params: p, Threads: th})
	}
	o := DefaultOptions
	o.Rounds, o.Window, o.Warmup, o.Quarantine = rounds, 20*time.Millisecond, 5*time.Millisecond, Quarantine{}
	o.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 8})
	}
	res, err := Run(context.Background(), cs, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestQuarantineKeepsOneStateOfLookups: in the host's slow state every
// one-thread lookup takes about 1.75 times as long and the speed probe
// moves under 10%, so only the floor probe can tell the states apart. A
// run keeps the windows of the state most of its windows saw: the slow
// window of a fast run is set aside, and the fast window of a slow one.
func TestQuarantineKeepsOneStateOfLookups(t *testing.T) {
	p, err := workloads.Issuer.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := Cell{Impl: impls.All()[0], Workload: workloads.Issuer, Params: p, Threads: 1}
	// The probes of two states of one machine, shaped as default runs
	// saw them (results/notes.md, "The speed and floor probes").
	for _, run := range []struct {
		floor, speed []float64
		aside        int
	}{
		{[]float64{21.2, 21.5, 38.1, 21.0, 21.4}, []float64{30.4, 30.6, 33.0, 30.5, 30.4}, 2},
		{[]float64{37.7, 38.5, 21.3, 38.1, 37.9}, []float64{33.0, 33.2, 30.5, 32.7, 32.9}, 2},
	} {
		r := newRunner([]Cell{c}, Options{Quarantine: DefaultQuarantine})
		for i := range run.floor {
			r.res.Samples = append(r.res.Samples, Sample{Cell: c, Round: i, Metrics: []workloads.Metric{
				{Value: 30, Unit: records.NsPerOp}, {Value: run.speed[i], Unit: records.Probe}, {Value: run.floor[i], Unit: records.FloorProbe}}})
		}
		r.judge()
		for i, s := range r.res.Samples {
			aside := s.Quarantine != ""
			if want := i == run.aside; aside != want {
				t.Errorf("floor probes %v, round %d: set aside %q, want set aside %v", run.floor, i, s.Quarantine, want)
			}
			if aside && !strings.Contains(s.Quarantine, "(floor probe)") {
				t.Errorf("floor probes %v, round %d set aside for %q, want the floor probe named", run.floor, i, s.Quarantine)
			}
		}
	}
}

// TestRepairWaitsOutTheOtherState: a round that repairs set-aside samples
// measures a cell only where the floor probe just before finds the host
// in the state the run keeps: a probe in the other state (faster or
// slower) skips the window and is counted; one in the kept state, a
// planned round, or a run without the probe's limit measures it.
func TestRepairWaitsOutTheOtherState(t *testing.T) {
	for _, k := range []struct {
		name   string
		before float64
		repair bool
		q      Quarantine
		wait   bool
	}{
		{"the other state, faster", 21.3, true, DefaultQuarantine, true},
		{"the other state, slower", 52, true, DefaultQuarantine, true},
		{"the kept state", 38.4, true, DefaultQuarantine, false},
		{"a planned round", 21.3, false, DefaultQuarantine, false},
		{"no probe limit", 21.3, true, Quarantine{}, false},
	} {
		c, o := repairCell(t, DefaultOptions.Rounds, k.q)
		r := newRunner([]Cell{c}, o)
		r.rng = rand.New(rand.NewPCG(1, 2))
		// A run in the slow state: its floor probes' median is 38.
		for i, f := range []float64{37.7, 38.5, 21.3, 38.1, 37.9} {
			r.res.Samples = append(r.res.Samples, Sample{Cell: c, Round: i, Metrics: []workloads.Metric{
				{Value: 30, Unit: records.NsPerOp}, {Value: f, Unit: records.FloorProbe}}})
		}
		probed := 0
		r.floorStandIn = func(context.Context, Cell) (workloads.Metric, bool, error) {
			probed++
			return workloads.Metric{Value: k.before, Unit: records.FloorProbe}, true, nil
		}
		extra := ""
		if k.repair {
			extra = repairing
		}
		if _, err := r.round(context.Background(), []Cell{c}, 6, extra); err != nil {
			t.Fatal(err)
		}
		measured := len(r.res.Samples) - 5
		if waited := r.res.WaitedOut == 1; waited != k.wait || measured == 1 == k.wait {
			t.Errorf("%s (probe before %v): waited out %d, measured %d windows; want waited %v", k.name, k.before, r.res.WaitedOut, measured, k.wait)
		}
		if !k.repair && probed != 1 {
			t.Errorf("%s: the floor probed %d times around a planned window, want once, after it", k.name, probed)
		}
	}
}

// TestRepairOfAStuckHostEnds: where the host stays in its other state,
// every window of the repair is waited out and the repair stops after
// maxRepairs times Extra rounds of probes; where it is back, every round
// measures, and one kept window ends the repair.
func TestRepairOfAStuckHostEnds(t *testing.T) {
	for _, k := range []struct {
		name          string
		before        float64
		rounds, waits int
	}{
		{"stuck in the other state", 21.3, maxRepairs * 3, maxRepairs * 3},
		{"back in the kept state", 38.2, 1, 0},
	} {
		c, o := repairCell(t, 3, DefaultQuarantine)
		r := setAsideOne(c, o, k.before)
		if _, err := r.extraRounds(context.Background()); err != nil {
			t.Fatal(err)
		}
		measured := len(r.res.Samples) - 3
		switch {
		case r.res.WaitedOut != k.waits:
			t.Errorf("%s: %d windows waited out, want %d", k.name, r.res.WaitedOut, k.waits)
		case k.waits > 0 && (r.res.ExtraRounds != k.rounds || measured != 0):
			t.Errorf("%s: %d rounds added, %d windows measured; want %d rounds of probes alone", k.name, r.res.ExtraRounds, measured, k.rounds)
		case k.waits == 0 && (measured < 1 || measured != r.res.ExtraRounds):
			t.Errorf("%s: %d rounds added, %d windows measured; want a window measured every round", k.name, r.res.ExtraRounds, measured)
		case k.waits == 0 && r.res.Samples[3].Quarantine == "" && r.res.ExtraRounds != 1:
			// A busy machine may set the window aside for its own reasons
			// (a worker waiting for a CPU): then the repair goes on.
			t.Errorf("%s: the first window was kept, yet %d rounds were added", k.name, r.res.ExtraRounds)
		}
	}
}

// TestRepairGoesOnForAStarvedCell: with Extra at one round, the repair of
// a host stuck in its other state stops at one round's share of rounds
// where the cell kept 7 of 8 windows, and goes on to the planned rounds'
// share where it kept 5 of 8 or 5 of 6, fewer than a median's interval
// needs (IntervalWindows), and says which time it had; Short names what
// is left.
func TestRepairGoesOnForAStarvedCell(t *testing.T) {
	for _, k := range []struct {
		name                          string
		floors                        []float64
		planned, kept, rounds, budget int
	}{
		{"7 of 8 kept", []float64{37.7, 38.5, 21.3, 38.1, 37.9, 38.3, 38.0, 37.8}, 8, 7, maxRepairs, 1},
		{"5 of 8 kept", []float64{37.7, 38.5, 21.3, 38.1, 37.9, 38.3}, 8, 5, maxRepairs * 8, 8},
		{"5 of 6 kept", []float64{37.7, 38.5, 21.3, 38.1, 37.9, 38.3}, 6, 5, maxRepairs * 6, 6},
		{"2 of 6 kept", []float64{37.7, 21.3, 38.1}, 6, 2, maxRepairs * 6, 6},
	} {
		q := DefaultQuarantine
		q.Extra = 1
		c, o := repairCell(t, k.planned, q)
		r := newRunner([]Cell{c}, o)
		r.rng = rand.New(rand.NewPCG(1, 2))
		r.res.Started = time.Now().Add(-time.Duration(len(k.floors)) * time.Second) // a window took a second: the budgets are long
		r.done = len(k.floors)
		for i, f := range k.floors {
			r.res.Samples = append(r.res.Samples, Sample{Cell: c, Round: i, Metrics: []workloads.Metric{
				{Value: 30, Unit: records.NsPerOp}, {Value: f, Unit: records.FloorProbe}}})
		}
		r.judge()
		if kept := len(r.res.valid(c, records.NsPerOp)); kept != k.kept {
			t.Fatalf("%s: %d windows kept before the repair", k.name, kept)
		}
		r.floorStandIn = func(context.Context, Cell) (workloads.Metric, bool, error) {
			return workloads.Metric{Value: 21.3, Unit: records.FloorProbe}, true, nil
		}
		if _, err := r.extraRounds(context.Background()); err != nil {
			t.Fatal(err)
		}
		if r.res.ExtraRounds != k.rounds || r.res.RepairRounds != k.budget {
			t.Errorf("%s: %d rounds added in the time of %d rounds, want %d in the time of %d", k.name, r.res.ExtraRounds, r.res.RepairRounds, k.rounds, k.budget)
		}
		if short := r.res.Short(); len(short) != 1 || short[0].Kept != k.kept {
			t.Errorf("%s: Short() = %v, want the cell with %d kept", k.name, short, k.kept)
		}
	}
}

// repairCell is a small lookup cell at one thread, and options that
// measure it in short windows from a cached corpus.
func repairCell(t *testing.T, rounds int, q Quarantine) (Cell, Options) {
	t.Helper()
	p, err := workloads.Issuer.Resolve(map[string]string{"certs": "64"})
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions
	o.Rounds, o.Window, o.Warmup, o.Quarantine = rounds, 20*time.Millisecond, 5*time.Millisecond, q
	o.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 8})
	}
	return Cell{Impl: impls.All()[0], Workload: workloads.Issuer, Params: p, Threads: 1}, o
}

// setAsideOne is a runner of c that measured three rounds, a window a
// second (the repair's budget is long), the second set aside as the host
// in its other state; every floor probe from then on reads before.
func setAsideOne(c Cell, o Options, before float64) *runner {
	r := newRunner([]Cell{c}, o)
	r.rng = rand.New(rand.NewPCG(1, 2))
	r.res.Started = time.Now().Add(-3 * time.Second)
	r.done = 3
	for i, f := range []float64{37.7, 21.3, 38.1} {
		r.res.Samples = append(r.res.Samples, Sample{Cell: c, Round: i, Metrics: []workloads.Metric{
			{Value: 30, Unit: records.NsPerOp}, {Value: f, Unit: records.FloorProbe}}})
	}
	r.judge()
	r.floorStandIn = func(context.Context, Cell) (workloads.Metric, bool, error) {
		return workloads.Metric{Value: before, Unit: records.FloorProbe}, true, nil
	}
	return r
}
