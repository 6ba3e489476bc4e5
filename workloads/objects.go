package workloads

import "fmt"

// Objects is X509_STORE_get1_objects: a full snapshot of a store of n
// objects, the call the hash map design must rebuild a flat list for.
var Objects = Workload{
	Name:        "objects",
	Title:       "Objects",
	Description: "Objects() snapshot of a full store",
	Params:      []Param{certsParam},
	// A snapshot copies the whole store: a few hundred of them.
	CountOps: 256,
	Setup: func(env Env) (*Instance, error) {
		c, err := env.Corpus(env.Params.Int("certs"))
		if err != nil {
			return nil, err
		}
		s, err := fill(env.Impl, c.Objects())
		if err != nil {
			return nil, err
		}
		want := s.Len()
		return &Instance{Worker: func(int) Op {
			return func(n int) error {
				for range n {
					if got := len(s.Objects()); got != want {
						return fmt.Errorf("%s: Objects returned %d objects, want %d", env.Impl.Name, got, want)
					}
				}
				return nil
			}
		}}, nil
	},
}
