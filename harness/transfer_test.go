package harness

import (
	"testing"

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
