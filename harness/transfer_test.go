package harness

import (
	"context"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
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
		if m.Unit != records.TransferProbe || !(m.Value >= 0) || m.Value > 1e6 {
			t.Fatalf("probe %v %s, want nanoseconds a write in %s", m.Value, m.Unit, records.TransferProbe)
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
	p, err := workloads.Issuer.Resolve(map[string]string{"certs": "64"})
	if err != nil {
		t.Fatal(err)
	}
	var cs []Cell
	for _, th := range []int{1, 2} {
		cs = append(cs, Cell{Impl: impls.All()[0], Workload: workloads.Issuer, Params: p, Threads: th})
	}
	o := DefaultOptions
	o.Rounds, o.Window, o.Warmup, o.Quarantine = 3, 20*time.Millisecond, 5*time.Millisecond, Quarantine{}
	o.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 8})
	}
	res, err := Run(context.Background(), cs, o)
	if err != nil {
		t.Fatal(err)
	}
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
