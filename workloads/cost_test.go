package workloads

import (
	"errors"
	"testing"
	"time"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// costed is a model that records whether it was given a Cost.
type costed struct {
	store.Store
	given bool
}

func (c *costed) SetCost(store.Cost) { c.given = true }

// TestApplyCost: at own nothing is added; at openssl every model, costed
// or not, gets the same work after its lookups and keeps its own lock and
// structure (no Cost), while a real store, which does OpenSSL's work
// itself, gets none; real gives a costed model of a real store its
// profile and refuses any other store.
func TestApplyCost(t *testing.T) {
	model := func(name string) (Env, *costed) {
		c := &costed{}
		return Env{Impl: store.Impl{Name: name, Rule: store.ContractRule}}, c
	}
	with := func(env Env, v string) Env {
		env.Params = Params{{Key: costParam.Name, Value: v}}
		return env
	}
	for _, v := range []string{"", CostOwn} {
		env, c := model("sorted")
		if after, err := applyCost(with(env, v), c); after != nil || err != nil || c.given {
			t.Errorf("cost %q: after %v, err %v, given %v: want nothing added", v, after != nil, err, c.given)
		}
	}
	for _, name := range []string{"sorted", "rcu", "mystore"} {
		env, c := model(name)
		after, err := applyCost(with(env, CostOpenSSL), c)
		if after == nil || err != nil || c.given {
			t.Errorf("%s at cost=openssl: after %v, err %v, given %v: want the shared work alone", name, after != nil, err, c.given)
		}
	}
	real := Env{Impl: store.Impl{Name: "openssl", Rule: store.IgnoresCAFlags}}
	if after, err := applyCost(with(real, CostOpenSSL), &costed{}); after != nil || err != nil {
		t.Errorf("a real store at cost=openssl: after %v, err %v: want nothing added", after != nil, err)
	}
	env, c := model("hashmap")
	if after, err := applyCost(with(env, CostReal), c); after != nil || err != nil || !c.given {
		t.Errorf("hashmap at cost=real: after %v, err %v, given %v: want its profile as a Cost", after != nil, err, c.given)
	}
	env, c = model("rcu")
	if _, err := applyCost(with(env, CostReal), c); !errors.Is(err, store.ErrUnsupported) {
		t.Errorf("rcu at cost=real: %v, want ErrUnsupported", err)
	}
	if CostNote(CostOpenSSL) == "" || CostNote(CostReal) == "" || CostNote(CostOwn) != "" {
		t.Error("every added cost says in the results file what it added; own adds nothing")
	}
}

// TestLookupsDoAfterWork: the lookup loop does after's work once per
// lookup, on the leaf looked up, hits and misses alike, and a batching
// store is then looked up one leaf at a time so the work follows each.
func TestLookupsDoAfterWork(t *testing.T) {
	c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 16, Hits: 16, Misses: 4})
	if err != nil {
		t.Fatal(err)
	}
	rot, err := rotation(c, 0.5, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := &Batcher{Store: impls.All()[0].New()}
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	var seen []*store.Object
	op := lookups("ref", s, c.At, rot, 0, func(leaf *store.Object) { seen = append(seen, leaf) })
	if err := op(len(rot) + 3); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(rot)+3 || seen[0] != rot[0].Cert || seen[len(rot)] != rot[0].Cert || s.Batches != 0 {
		t.Errorf("after ran %d times over %d lookups (batches %d), want once per lookup on its leaf, no batch", len(seen), len(rot)+3, s.Batches)
	}
}

// Batcher is a store with IssuerBatch (as the real store has, behind
// cgo), answering through its Issuer, so a liar inside lies in batches
// too; Batches counts the calls. Lookups with after work must not use it.
// Exported for the package's external tests.
type Batcher struct {
	store.Store
	Batches int
}

func (b *Batcher) IssuerBatch(certs []*store.Object, at time.Time, out []*store.Object) {
	b.Batches++
	for i, c := range certs {
		out[i], _ = b.Store.Issuer(c, at)
	}
}

// BenchmarkSharedWork is what cost=openssl adds to every model lookup, on
// this machine (results/fidelity/openssl-cost/README.md says how sharedRounds was set).
func BenchmarkSharedWork(b *testing.B) {
	leaf := &store.Object{DER: make([]byte, 512), Issuer: "CN=a", Subject: "CN=b"}
	for b.Loop() {
		burn(leaf, sharedRounds)
	}
}

// BenchmarkBurnRound is one round of that work.
func BenchmarkBurnRound(b *testing.B) {
	leaf := &store.Object{DER: make([]byte, 512), Issuer: "CN=a", Subject: "CN=b"}
	for b.Loop() {
		burn(leaf, 1)
	}
}

// TestShareSplitsEvenly: the shared-lock part and the free part of a
// profile's outside work are split over its pieces whole round by whole
// round, losing none and giving no piece more than one round above
// another.
func TestShareSplitsEvenly(t *testing.T) {
	for _, n := range []int{0, 1, 3, 7, 10, 23} {
		for _, pieces := range []int{1, 2, 5, 10} {
			sum, lo, hi := 0, n, 0
			for k := range pieces {
				s := share(n, k, pieces)
				sum, lo, hi = sum+s, min(lo, s), max(hi, s)
			}
			if sum != n || hi-lo > 1 {
				t.Errorf("%d rounds in %d pieces: %d in all, pieces of %d to %d", n, pieces, sum, lo, hi)
			}
		}
	}
	if p := realProfiles["sorted"]; p.sharedHeld <= 0 || p.sharedHeld >= p.outside {
		t.Errorf("sorted's shared-lock work %v of %v outside: want a part of it", p.sharedHeld, p.outside)
	}
}
