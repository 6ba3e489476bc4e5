package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// TestTheTransferProbeTimesAWrite: on a machine of two cores or more the
// probe times a write to a line the other thread wrote last, in its unit,
// as the first less the second (never below zero). A busy machine may
// starve a try of its writes, so it has several.
func TestTheTransferProbeTimesAWrite(t *testing.T) {
	if Cores() < 2 {
		t.Skip("one core: no other core to take a line from")
	}
	for range 50 {
		m, ok := transferProbe(allowedCPUs())
		if !ok {
			continue
		}
		if m.Unit != records.TransferProbe || !(m.Value >= 0) || m.Value > 1e-3 {
			t.Fatalf("probe %v %s, want seconds a write in %s", m.Value, m.Unit, records.TransferProbe)
		}
		return
	}
	t.Fatal("50 tries timed too few writes each")
}

// TestTheTransferProbeFollowsTwoThreads: windows on two threads are
// followed by the transfer probe (where its threads got their cores), and
// windows on one thread by none. A probe whose thread waited for a CPU
// is dropped, so on a busy machine a run of three rounds may keep none:
// runs are tried until one keeps a probe, five at most.
func TestTheTransferProbeFollowsTwoThreads(t *testing.T) {
	if Cores() < 2 {
		t.Skip("one core")
	}
	probed := 0
	for try := 0; try < 5 && probed == 0; try++ {
		res := lookupsAtOneAndTwo(t, 3)
		for i := range res.Samples {
			s := &res.Samples[i]
			v, ok := metric(s, records.TransferProbe)
			switch {
			case s.Cell.Threads == 1 && ok:
				t.Errorf("%s: a transfer probe (%v) after a window on one thread", s.Cell.Name(), v)
			case ok && !(v >= 0):
				t.Errorf("%s: transfer probe %v", s.Cell.Name(), v)
			case ok:
				probed++
			}
		}
	}
	if probed == 0 {
		t.Error("no window on two threads, in five runs, was followed by a transfer probe")
	}
}

// TestTheTransferProbeReadsWhatMoves: where the other thread adds to
// lines of its own, nothing moves between the cores and the probe reads
// within a nanosecond of none a line, finer than the clock's step; where
// the lines moved, a pass over many reads what one line timed alone does,
// so each add waited for the line before it. Each is the median of several
// tries, interleaved, as the host's speed drifts and its pair of cores
// moves.
func TestTheTransferProbeReadsWhatMoves(t *testing.T) {
	if Cores() < 2 {
		t.Skip("one core: no other core to take a line from")
	}
	if underRace {
		t.Skip("the race detector times its own bookkeeping of every add")
	}
	var many, one, still []time.Duration
	for range 15 {
		for _, try := range []struct {
			moved bool
			lines int
			out   *[]time.Duration
		}{{true, transferLines, &many}, {true, 1, &one}, {false, transferLines, &still}} {
			if d, ok := timeTransfer(allowedCPUs(), try.moved, try.lines); ok {
				*try.out = append(*try.out, d)
			}
		}
	}
	if len(many) < 5 || len(one) < 5 || len(still) < 5 {
		t.Skipf("the machine starved the probe: %d, %d and %d tries of 15 timed enough passes", len(many), len(one), len(still))
	}
	m, o, s := median(many), median(one), median(still)
	t.Logf("a line another core wrote: %v over %d lines, %v one alone; one of its own: %v", m, transferLines, o, s)
	if s < -time.Nanosecond || s > time.Nanosecond {
		t.Errorf("where no line moves the probe reads %v a line, want within a nanosecond of none", s)
	}
	// A line alone is read to the clock's step: compared where its
	// transfer is many steps.
	if o >= 50*time.Nanosecond && (m < o*7/10 || m > o*13/10) {
		t.Errorf("over %d lines a line reads %v, timed alone %v: the adds did not wait for each other", transferLines, m, o)
	}
}

// TestQuarantineKeepsOnePairOfCores: a run keeps the windows of the pair
// of cores most of its 2-thread windows ran on, told by their transfer
// probes, whichever pair that was; windows of one pair a few nanoseconds
// apart, or an earlier probe's clock steps apart, stay; and a window set aside
// because a worker waited for a CPU tells no pair, however many there are.
func TestQuarantineKeepsOnePairOfCores(t *testing.T) {
	if Cores() < 2 {
		t.Skip("one core: no window on two threads is judged")
	}
	p, err := workloads.Issuer.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := Cell{Impl: impls.All()[0], Workload: workloads.Issuer, Params: p, Threads: 2}
	for _, run := range []struct {
		name     string
		transfer []float64 // ns
		waited   []bool
		pair     []bool // set aside for the pair
	}{
		{"far pair", []float64{140, 141, 23, 139, 142}, nil, []bool{false, false, true, false, false}},
		{"near pair", []float64{23, 24, 140, 22, 25}, nil, []bool{false, false, true, false, false}},
		{"one pair, nanoseconds apart", []float64{23, 18, 27, 25, 22}, nil, []bool{false, false, false, false, false}},
		{"one pair, an earlier probe's clock steps", []float64{0, 10, 10, 0, 5}, nil, []bool{false, false, false, false, false}},
		{"waits tell no pair", []float64{140, 25, 25, 25, 141}, []bool{false, true, true, true, false}, []bool{false, false, false, false, false}},
	} {
		r := newRunner([]Cell{c}, Options{Quarantine: DefaultQuarantine})
		for i, tr := range run.transfer {
			wait := 0.0
			if run.waited != nil && run.waited[i] {
				wait = 0.5
			}
			r.res.Samples = append(r.res.Samples, Sample{Cell: c, Round: i, Metrics: []workloads.Metric{
				{Value: 30, Unit: records.NsPerOp}, {Value: wait, Unit: records.RunQueue}, {Value: tr * 1e-9, Unit: records.TransferProbe}}})
		}
		r.judge()
		for i, s := range r.res.Samples {
			pair := strings.Contains(s.Quarantine, "another pair of cores")
			if pair != run.pair[i] {
				t.Errorf("%s: window %d (%v ns) set aside %q, want set aside for its pair %v", run.name, i, run.transfer[i], s.Quarantine, run.pair[i])
			}
		}
	}
}
