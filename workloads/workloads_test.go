package workloads_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

func smallCorpus(cas int) (*corpus.Corpus, error) {
	return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: cas / 4})
}

func small(t *testing.T, w workloads.Workload, set map[string]string, im store.Impl) *workloads.Instance {
	t.Helper()
	p, err := w.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := w.Setup(workloads.Env{Impl: im, Params: p, Corpus: smallCorpus, Seed: 1})
	if errors.Is(err, store.ErrUnsupported) {
		t.Skipf("%s cannot run %s: %v", im.Name, w.Name, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestEveryWorkloadOnEveryImplementation runs each workload a little on
// each store, with two workers, checking every answer.
func TestEveryWorkloadOnEveryImplementation(t *testing.T) {
	sets := map[string][]map[string]string{
		"issuer":  {{"certs": "64"}, {"certs": "64", "hit": "0"}, {"certs": "64", "hit": "0.5"}, {"certs": "64", "cost": "real"}, {"certs": "64", "cost": "openssl"}},
		"mixed":   {{"certs": "64", "rate": "1000"}},
		"load":    {{"n": "64"}, {"n": "64", "mode": "bucket", "dup": "0.3"}},
		"objects": {{"certs": "64"}},
		"reload":  {{"certs": "16"}, {"certs": "16", "mode": "cached"}},
		"empty":   {{}},
	}
	for _, w := range workloads.All {
		for _, set := range sets[w.Name] {
			for _, im := range impls.All() {
				t.Run(w.Name+"/"+im.Name, func(t *testing.T) {
					inst := small(t, w, set, im)
					for wk := range 2 {
						if err := inst.Worker(wk)(50); err != nil {
							t.Fatal(err)
						}
					}
					for _, p := range inst.Paced {
						for range 5 {
							if err := p.Op(); err != nil {
								t.Fatal(err)
							}
						}
					}
				})
			}
		}
		if _, ok := sets[w.Name]; !ok {
			t.Errorf("workload %s has no test", w.Name)
		}
	}
}

// liar is a store that answers one lookup in eight wrongly.
type liar struct {
	store.Store
	n int
}

func (l *liar) Issuer(c *store.Object, at time.Time) (*store.Object, bool) {
	l.n++
	if l.n%8 == 0 {
		return nil, false
	}
	return l.Store.Issuer(c, at)
}

func TestWrongAnswerFailsNamingTheImplementation(t *testing.T) {
	im := store.Impl{Name: "liar", New: func() store.Store { return &liar{Store: impls.All()[0].New()} }}
	inst := small(t, workloads.Issuer, map[string]string{"certs": "32"}, im)
	err := inst.Worker(0)(100)
	if err == nil || !strings.Contains(err.Error(), "liar: wrong issuer for cert") {
		t.Fatalf("err = %v, want a wrong-issuer error naming liar and the certificate", err)
	}
}

// TestBatchLookups: a store with IssuerBatch gets a worker's lookups in
// batches — the same rotation, every answer checked (a wrong one in a
// batch still fails naming the store), hits and misses alike — its
// harness batches are long, and a warm batch allocates nothing.
func TestBatchLookups(t *testing.T) {
	b := &workloads.Batcher{Store: impls.All()[0].New()}
	im := store.Impl{Name: "batcher", New: func() store.Store { b.Store = impls.All()[0].New(); return b }}
	inst := small(t, workloads.Issuer, map[string]string{"certs": "32", "hit": "0.5"}, im)
	op := inst.Worker(0)
	if err := op(10000); err != nil {
		t.Fatal(err)
	}
	if b.Batches != 3 {
		t.Errorf("10000 lookups in %d batches, want 3 (4096 a call)", b.Batches)
	}
	if inst.BatchTarget != 5*time.Millisecond {
		t.Errorf("BatchTarget %v, want 5ms: the harness keeps a store behind cgo in few, long calls", inst.BatchTarget)
	}
	if plain := small(t, workloads.Issuer, map[string]string{"certs": "32"}, impls.All()[0]); plain.BatchTarget != 0 {
		t.Errorf("a Go store's BatchTarget %v, want the harness's own", plain.BatchTarget)
	}
	if n := testing.AllocsPerRun(20, func() { op(200) }); n != 0 {
		t.Errorf("a warm batch allocates %v times", n)
	}
	lying := store.Impl{Name: "liar", New: func() store.Store { return &workloads.Batcher{Store: &liar{Store: impls.All()[0].New()}} }}
	err := small(t, workloads.Issuer, map[string]string{"certs": "32"}, lying).Worker(0)(100)
	if err == nil || !strings.Contains(err.Error(), "liar: wrong issuer for cert") {
		t.Fatalf("err = %v, want a wrong-issuer error naming liar", err)
	}
}

// costRecorder is a model that keeps the Cost it is given.
type costRecorder struct {
	store.Store
	cost store.Cost
	set  bool
}

func (c *costRecorder) SetCost(cost store.Cost) { c.cost, c.set = cost, true }

// TestCostReal: cost=real gives a model of a real store (by its name) a
// Cost whose work runs inside and outside its lock, and is named in the
// cell; at its default it is not, so names from before stay; a store that
// models no real store cannot run at one's cost.
func TestCostReal(t *testing.T) {
	if p, _ := workloads.Issuer.Resolve(nil); p.String() != "certs=1024/hit=1" {
		t.Errorf("default params %s, want certs=1024/hit=1 (names unchanged)", p)
	}
	if p, _ := workloads.Issuer.Resolve(map[string]string{"cost": "real"}); p.String() != "certs=1024/hit=1/cost=real" {
		t.Errorf("cost=real params %s", p)
	}
	rec := &costRecorder{}
	sorted, _ := impls.Lookup("sorted")
	im := store.Impl{Name: "sorted", Rule: sorted.Rule, New: func() store.Store { rec.Store = sorted.New(); return rec }}
	inst := small(t, workloads.Issuer, map[string]string{"certs": "32", "cost": "real"}, im)
	if !rec.set || rec.cost.Inside == nil || rec.cost.Outside == nil {
		t.Fatalf("the model got no cost: %+v", rec)
	}
	if err := inst.Worker(0)(50); err != nil {
		t.Fatal(err)
	}
	rcu, _ := impls.Lookup("rcu")
	p, _ := workloads.Issuer.Resolve(map[string]string{"certs": "32", "cost": "real"})
	_, err := workloads.Issuer.Setup(workloads.Env{Impl: rcu, Params: p, Corpus: smallCorpus, Seed: 1})
	if !errors.Is(err, store.ErrUnsupported) {
		t.Errorf("rcu at a real store's cost: %v, want ErrUnsupported", err)
	}
}

func TestResolveRejectsBadValues(t *testing.T) {
	for _, tc := range []struct {
		w   workloads.Workload
		set map[string]string
	}{
		{workloads.Issuer, map[string]string{"hit": "2"}},
		{workloads.Issuer, map[string]string{"certs": "0"}},
		{workloads.Issuer, map[string]string{"certs": "x"}},
		{workloads.Load, map[string]string{"mode": "sideways"}},
		{workloads.Mixed, map[string]string{"rate": "-1"}},
		{workloads.Reload, map[string]string{"ttl": "0s"}},
	} {
		if _, err := tc.w.Resolve(tc.set); err == nil {
			t.Errorf("%s %v accepted", tc.w.Name, tc.set)
		}
	}
	p, err := workloads.Issuer.Resolve(map[string]string{"hit": "0.5", "n": "7"})
	if err != nil || p.String() != "certs=1024/hit=0.5" {
		t.Fatalf("Resolve = %q, %v; want defaults filled, foreign parameters ignored", p, err)
	}
}

// asked is a store that records which certificates it was asked about.
type asked struct {
	store.Store
	certs map[*store.Object]bool
}

func (a *asked) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	a.certs[cert] = true
	return a.Store.Issuer(cert, at)
}

// TestLeavesNarrowsTheRotation: leaves=N looks up the corpus's first N
// leaves of each kind, at 1 the one leaf x509storeissuer is given
// ({corpus}/servercert.pem: the first of its kind); at its default every
// leaf, and the cell names of before.
func TestLeavesNarrowsTheRotation(t *testing.T) {
	c, err := smallCorpus(32)
	if err != nil {
		t.Fatal(err)
	}
	lookedUp := func(set map[string]string) map[*store.Object]bool {
		a := &asked{certs: map[*store.Object]bool{}}
		im := store.Impl{Name: "asked", New: func() store.Store { a.Store = impls.All()[0].New(); return a }}
		if err := small(t, workloads.Issuer, set, im).Worker(1)(3000); err != nil {
			t.Fatal(err)
		}
		return a.certs
	}
	if got := lookedUp(map[string]string{"certs": "32", "hit": "0", "leaves": "1"}); len(got) != 1 || !got[c.Misses[0].Cert] {
		t.Errorf("leaves=1 hit=0 looked up %d leaves, want only the first miss", len(got))
	}
	if got := lookedUp(map[string]string{"certs": "32", "hit": "1", "leaves": "3"}); len(got) != 3 || !got[c.Hits[0].Cert] || !got[c.Hits[2].Cert] {
		t.Errorf("leaves=3 hit=1 looked up %d leaves, want the first 3 hits", len(got))
	}
	if got := lookedUp(map[string]string{"certs": "32", "hit": "0.5"}); len(got) != len(c.Hits)+len(c.Misses) {
		t.Errorf("the default looked up %d leaves, want all %d", len(got), len(c.Hits)+len(c.Misses))
	}
	if p, _ := workloads.Issuer.Resolve(map[string]string{"leaves": "1"}); p.String() != "certs=1024/hit=1/leaves=1" {
		t.Errorf("leaves=1 params %s", p)
	}
	for _, bad := range []string{"0", "-1", "some"} {
		if _, err := workloads.Issuer.Resolve(map[string]string{"leaves": bad}); err == nil {
			t.Errorf("leaves=%s accepted", bad)
		}
	}
}
