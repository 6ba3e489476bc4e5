package workloads

import (
	"fmt"
	"math/rand/v2"
	"runtime"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Load answers "how much slower did insert get": one operation builds a
// store of n objects from empty, one Add per object, as a server loading
// its CA bundle does. spread gives every object its own name; bucket gives
// them all one name (perftools' x509storeadd). dup re-adds that fraction of
// objects again, as loading overlapping bundles does, spread among them or
// after them all (order). With several threads
// each worker builds its own store.
var Load = Workload{
	Name:        "load",
	Title:       "Load",
	Description: "build a store of n objects from empty, one Add each; reports ns/add and B/object",
	Params: []Param{
		{"n", "1024", "objects to add", positiveInt, false},
		{"mode", "spread", "one of spread|bucket: distinct names, or one shared name", oneOf("spread", "bucket"), false},
		{"dup", "0", "copies added again, as a fraction of the objects (duplicates are skipped): 0.5 adds half of them once more, 9 all of them nine more times", repeats, false},
		{"order", "spread", "one of spread|after: each copy at a random point after its original, or every copy after all the objects, in their order (loading a bundle, then a subset of it)", oneOf("spread", "after"), false},
	},
	Setup: func(env Env) (*Instance, error) {
		n := env.Params.Int("n")
		objs, err := loadObjects(env, n)
		if err != nil {
			return nil, err
		}
		seq := withDuplicates(objs, env.Params.Float("dup"), env.Params.Get("order") == "after", env.Seed)
		perObject, err := bytesPerObject(env.Impl, objs)
		if err != nil {
			return nil, err
		}
		return &Instance{
			Worker: func(int) Op {
				return func(k int) error {
					for range k {
						if err := build(env.Impl, seq, n); err != nil {
							return err
						}
					}
					return nil
				}
			},
			Unit:  "add",
			PerOp: float64(len(seq)),
			Extra: []Metric{{Value: perObject, Unit: records.BPerObject}},
		}, nil
	},
}

// build is one load operation: a fresh store, one Add per object.
func build(im store.Impl, seq []*store.Object, want int) error {
	s := im.New()
	for _, o := range seq {
		if _, err := s.Add(o); err != nil {
			return fmt.Errorf("%s: Add(%v): %w", im.Name, o, err)
		}
	}
	if got := s.Len(); got != want {
		return fmt.Errorf("%s: store holds %d objects after loading %d distinct ones", im.Name, got, want)
	}
	return nil
}

func loadObjects(env Env, n int) ([]*store.Object, error) {
	if env.Params.Get("mode") == "bucket" {
		return corpus.Bucket(env.Seed, n)
	}
	c, err := env.Corpus(n)
	if err != nil {
		return nil, err
	}
	all := c.Objects()
	if len(all) < n {
		return nil, fmt.Errorf("load n=%d: corpus %s has only %d objects", n, c.Source, len(all))
	}
	return all[:n], nil
}

// withDuplicates returns objs with dup × len(objs) copies of them added
// again: after all of them, in their order, cycling (after); else each
// a copy of a random object, inserted at a random point past that object's
// place in objs.
func withDuplicates(objs []*store.Object, dup float64, after bool, seed uint64) []*store.Object {
	seq := append([]*store.Object(nil), objs...)
	copies := int(dup*float64(len(objs)) + 0.5)
	if after {
		for i := range copies {
			seq = append(seq, objs[i%len(objs)])
		}
		return seq
	}
	r := rand.New(rand.NewPCG(seed, 0xd0b))
	for range copies {
		i := r.IntN(len(objs))
		at := i + 1 + r.IntN(len(seq)-i)
		seq = append(seq[:at], append([]*store.Object{objs[i]}, seq[at:]...)...)
	}
	return seq
}

// bytesPerObject measures the live heap a finished store holds per object,
// beyond the objects themselves (which every implementation shares).
func bytesPerObject(im store.Impl, objs []*store.Object) (float64, error) {
	// Right after a forced collection, HeapAlloc is exactly the live heap.
	// Collect until it stops shrinking: garbage behind finalizers and
	// sync.Pool victim caches survives the first collections.
	live := func() float64 {
		var ms runtime.MemStats
		prev := uint64(0)
		for range 5 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc == prev {
				break
			}
			prev = ms.HeapAlloc
		}
		return float64(ms.HeapAlloc)
	}
	before := live()
	s, err := fill(im, objs)
	if err != nil {
		return 0, err
	}
	after := live()
	runtime.KeepAlive(s)
	return max(after-before, 0) / float64(len(objs)), nil
}
