package workloads

// Empty does nothing per operation but call a function the compiler cannot
// remove: measured like any cell, it is the harness's own cost per
// operation, the floor under every other figure.
var Empty = Workload{
	Name:        "empty",
	Title:       "Empty",
	Description: "no work: the harness's own overhead per operation",
	Hidden:      true,
	Setup: func(env Env) (*Instance, error) {
		return &Instance{Worker: func(int) Op {
			return func(n int) error {
				for range n {
					nothing()
				}
				return nil
			}
		}}, nil
	},
}

//go:noinline
func nothing() {}
