package harness

import (
	"testing"
	"time"

	"github.com/perfrun/perfrun/records"
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
// windows on one thread by none.
func TestTheTransferProbeFollowsTwoThreads(t *testing.T) {
	if Cores() < 2 {
		t.Skip("one core")
	}
	res := lookupsAtOneAndTwo(t, 3)
	probed := 0
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
	if probed == 0 {
		t.Error("no window on two threads was followed by a transfer probe")
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
