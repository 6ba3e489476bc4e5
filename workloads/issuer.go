package workloads

// Issuer is the lookup workload of OpenSSL's perftools x509storeissuer and
// of the per-thread tables: every worker calls Issuer(leaf, now) over its own
// rotation of leaves on a full store.
var Issuer = Workload{
	Name:        "issuer",
	Title:       "Issuer",
	Description: "Issuer(leaf, now) on a full store, each worker over its own rotation of leaves",
	Params:      []Param{certsParam, hitParam, leavesParam, costParam},
	Floor:       &Floor,
	CountOps:    lookupCount,
	Setup: func(env Env) (*Instance, error) {
		c, s, rot, err := lookupSetup(env)
		if err != nil {
			return nil, err
		}
		after, err := applyCost(env, s)
		if err != nil {
			return nil, err
		}
		return &Instance{Worker: func(w int) Op {
			return lookups(env.Impl.Name, s, c.At, rot, start(w, len(rot)), after)
		}, Period: len(rot), BatchTarget: batchTarget(s)}, nil
	},
}
