package workloads

import (
	"sync/atomic"

	"github.com/perfrun/perfrun/store"
)

// Floor is the limit of any lock-free lookup on this machine: one atomic
// load of a pointer to an immutable Go map, and one map lookup of the same
// keys the issuer workload asks for (the canonical issuer names of the
// same rotation of leaves). No design can answer a lookup in less; a
// design's time over the floor's is how far it is from the machine's
// limit. It measures no store: its cell has no impl key.
var Floor = Workload{
	Name:        "floor",
	Title:       "Floor",
	Description: "an atomic pointer to a Go map, looked up by the issuer workload's keys: the limit of a lookup",
	Params:      []Param{certsParam, hitParam, leavesParam},
	Hidden:      true,
	Setup: func(env Env) (*Instance, error) {
		c, err := env.Corpus(env.Params.Int("certs"))
		if err != nil {
			return nil, err
		}
		rot, err := rotation(c, env.Params.Float("hit"), LeafLimit(env.Params), env.Seed)
		if err != nil {
			return nil, err
		}
		table := &floorTable{m: make(map[store.Name]*store.Object, len(c.CAs))}
		for _, ca := range c.CAs {
			if _, ok := table.m[ca.Subject]; !ok {
				table.m[ca.Subject] = ca
			}
		}
		holder := new(floorHolder)
		holder.p.Store(table)
		return &Instance{Worker: func(w int) Op {
			pos := &padded[[2]int]{v: [2]int{start(w, len(rot)), 0}}
			return func(n int) error {
				i, found := pos.v[0], pos.v[1]
				for range n {
					if _, ok := holder.p.Load().m[rot[i].Cert.Issuer]; ok {
						found++
					}
					if i++; i == len(rot) {
						i = 0
					}
				}
				pos.v = [2]int{i, found}
				return nil
			}
		}, Period: len(rot)}, nil
	},
}

// floorTable is the immutable map the floor looks up; floorHolder the
// atomic pointer to it that every lookup loads, as an RCU reader would.
type floorTable struct{ m map[store.Name]*store.Object }

type floorHolder struct{ p atomic.Pointer[floorTable] }
