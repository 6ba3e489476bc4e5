package workloads

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Parameters shared by several workloads.
var (
	certsParam = Param{"certs", "1024", "CA certificates in the store (a loaded corpus has its own count)", positiveInt, false}
	hitParam   = Param{"hit", "1", "fraction of lookups whose issuer is present; 0 is the all-miss case", fraction, false}
	// leavesParam narrows the rotation to the first N leaves of each kind.
	// At 1 perfrun looks up what perftools' x509storeissuer looks up: the
	// one leaf a command's {corpus}/servercert.pem holds, on the same full
	// store. Left out of cell names at its default, so older names stay.
	leavesParam = Param{Name: "leaves", Default: "all", Check: allOrPositiveInt, Quiet: true,
		Help: "distinct leaves of each kind the rotation cycles through: all, or the corpus's first N (1: the one leaf a command's {corpus}/servercert.pem holds, as x509storeissuer looks up one)"}
)

// LeafLimit is the leaves parameter as a count: 0 for all.
func LeafLimit(p Params) int {
	return p.Int(leavesParam.Name) // "all" and an absent parameter read as 0
}

// FirstLeaves is the first limit of leaves (all when limit is 0): the
// leaves of one kind a rotation, or a command's corpus, holds.
func FirstLeaves(leaves []corpus.Leaf, limit int) []corpus.Leaf {
	if limit > 0 && limit < len(leaves) {
		return leaves[:limit]
	}
	return leaves
}

// fill builds a store of the implementation holding objs.
func fill(im store.Impl, objs []*store.Object) (store.Store, error) {
	s := im.New()
	if _, err := s.Add(objs...); err != nil {
		return nil, fmt.Errorf("%s: filling the store: %w", im.Name, err)
	}
	return s, nil
}

// lookupSetup is the setup shared by the lookup workloads: the corpus for
// the certs parameter, a store filled with it, and the rotation of leaves.
func lookupSetup(env Env) (*corpus.Corpus, store.Store, []corpus.Leaf, error) {
	c, err := env.Corpus(env.Params.Int("certs"))
	if err != nil {
		return nil, nil, nil, err
	}
	rot, err := rotation(c, env.Params.Float("hit"), LeafLimit(env.Params), env.Seed)
	if err != nil {
		return nil, nil, nil, err
	}
	if env.Impl.Rule != store.ContractRule {
		// A real store's documented rule: expect its answers.
		for i := range rot {
			rot[i].Issuer, _ = c.ExpectedBy(env.Impl.Rule, rot[i].Cert)
		}
	}
	s, err := fill(env.Impl, c.Objects())
	if err != nil {
		return nil, nil, nil, err
	}
	return c, s, rot, nil
}

// rotationLen is how many lookups a rotation holds before it repeats.
const rotationLen = 1024

// lookupCount is how many lookups an exact count runs: eight rotations,
// a few milliseconds natively at OpenSSL's cost.
const lookupCount = 8 * rotationLen

// rotation is the sequence of leaves the lookup workers cycle through: hit
// is the fraction whose issuer is present, drawn from the first limit
// leaves of each kind (all when limit is 0), shuffled with seed.
func rotation(c *corpus.Corpus, hit float64, limit int, seed uint64) ([]corpus.Leaf, error) {
	hits := int(hit*rotationLen + 0.5)
	if hits > 0 && len(c.Hits) == 0 {
		return nil, fmt.Errorf("corpus %s has no leaf whose issuer is present; use hit=0", c.Source)
	}
	if hits < rotationLen && len(c.Misses) == 0 {
		return nil, fmt.Errorf("corpus %s has no leaf whose issuer is absent; use hit=1", c.Source)
	}
	in, out := FirstLeaves(c.Hits, limit), FirstLeaves(c.Misses, limit)
	rot := make([]corpus.Leaf, 0, rotationLen)
	for i := range hits {
		rot = append(rot, in[i%len(in)])
	}
	for i := range rotationLen - hits {
		rot = append(rot, out[i%len(out)])
	}
	r := rand.New(rand.NewPCG(seed, 0x707))
	r.Shuffle(len(rot), func(i, j int) { rot[i], rot[j] = rot[j], rot[i] })
	return rot, nil
}

// start spreads workers over a rotation so they do not walk in step.
func start(w, n int) int { return (w * 389) % n }

// lookups is the issuer-lookup loop shared by issuer and mixed: one Issuer
// call per operation, each answer compared with the expected one, then
// after's work on the leaf, if any (outside the store). The
// worker's place in the rotation lives in its own padded slot and on the
// stack during a batch (see padded).
func lookups(impl string, s store.Store, at time.Time, rot []corpus.Leaf, first int, after func(*store.Object)) Op {
	if b, ok := s.(store.IssuerBatch); ok && after == nil {
		return batchLookups(impl, b, at, rot, first)
	}
	pos := &padded[int]{v: first}
	return func(n int) error {
		i := pos.v
		for range n {
			l := &rot[i]
			if got, _ := s.Issuer(l.Cert, at); got != l.Issuer {
				return wrongIssuer(impl, l.Cert, got, l.Issuer)
			}
			if after != nil {
				after(l.Cert)
			}
			if i++; i == len(rot) {
				i = 0
			}
		}
		pos.v = i
		return nil
	}
}

func wrongIssuer(impl string, cert, got, want *store.Object) error {
	return fmt.Errorf("%s: wrong issuer for %v: got %v, want %v", impl, cert, describe(got), describe(want))
}

func describe(o *store.Object) string {
	if o == nil {
		return "none"
	}
	return o.String()
}

// lookupBatch is the most lookups batchLookups hands a store at once: a
// whole batch of the harness's (crossingBatch) for a lookup of a
// microsecond or more.
const lookupBatch = 4096

// crossingBatch is how long a batch of lookups takes for a store behind
// cgo (Instance.BatchTarget): each cgo call then lasts milliseconds, and
// under 10 ms, so with the spare P and the yield after every batch the
// harness gives such windows (harness: procsFor) Go leaves the call alone.
const crossingBatch = 5 * time.Millisecond

// batchTarget is the Instance.BatchTarget lookups on s want.
func batchTarget(s store.Store) time.Duration {
	if _, ok := s.(store.IssuerBatch); ok {
		return crossingBatch
	}
	return 0
}

// batchLookups is lookups for a store with IssuerBatch: the same rotation
// and the same checks, lookupBatch lookups per call. Its buffers are the
// worker's own, made before the window, so a batch allocates nothing.
func batchLookups(impl string, s store.IssuerBatch, at time.Time, rot []corpus.Leaf, first int) Op {
	type buffers struct {
		pos   int
		certs [lookupBatch]*store.Object
		got   [lookupBatch]*store.Object
	}
	b := &padded[buffers]{v: buffers{pos: first}} // 64 KiB a worker, made before its window
	return func(n int) error {
		v := &b.v
		for n > 0 {
			k := min(n, lookupBatch)
			i := v.pos
			for j := range k {
				v.certs[j] = rot[i].Cert
				if i++; i == len(rot) {
					i = 0
				}
			}
			s.IssuerBatch(v.certs[:k], at, v.got[:k])
			i = v.pos
			for j := range k {
				if l := &rot[i]; v.got[j] != l.Issuer {
					return wrongIssuer(impl, l.Cert, v.got[j], l.Issuer)
				}
				if i++; i == len(rot) {
					i = 0
				}
			}
			v.pos = i
			n -= k
		}
		return nil
	}
}
