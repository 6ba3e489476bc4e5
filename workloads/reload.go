package workloads

import (
	"fmt"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Reload is one TLS connection's certificate-store work in a client such as
// curl: either parse the PEM bundle, build a store and look up one issuer
// (reparse), or reuse a store cached per worker until its time-to-live runs
// out (cached). The default ttl is far longer than a window, so the cached
// arm measures the lookup alone.
var Reload = Workload{
	Name:        "reload",
	Title:       "Reload",
	Description: "per connection: re-parse the PEM bundle and build a store, or reuse a cached store with a ttl",
	Params: []Param{
		{"certs", "150", "CA certificates in the bundle (a system bundle holds about 150)", positiveInt, false},
		{"mode", "reparse", "one of reparse|cached", oneOf("reparse", "cached"), false},
		{"ttl", "24h", "how long the cached arm keeps its store", positiveDuration, false},
	},
	Setup: func(env Env) (*Instance, error) {
		c, err := env.Corpus(env.Params.Int("certs"))
		if err != nil {
			return nil, err
		}
		bundle := corpus.EncodePEM(c.Objects())
		probe, want, err := reloadProbe(c, env.Impl.Rule)
		if err != nil {
			return nil, err
		}
		conn := &connection{im: env.Impl, bundle: bundle, at: c.At, probe: probe, want: want}
		cached := env.Params.Get("mode") == "cached"
		ttl := env.Params.Duration("ttl")
		return &Instance{Worker: func(int) Op {
			cache := &padded[cachedStore]{}
			return func(n int) error {
				c := &cache.v
				for range n {
					if cached && c.s != nil && time.Since(c.built) < ttl {
						if err := conn.lookup(c.s); err != nil {
							return err
						}
						continue
					}
					var err error
					if c.s, err = conn.build(); err != nil {
						return err
					}
					c.built = time.Now()
					if err := conn.lookup(c.s); err != nil {
						return err
					}
				}
				return nil
			}
		}}, nil
	},
}

// cachedStore is one worker's store of the cached arm and when it was built.
type cachedStore struct {
	s     store.Store
	built time.Time
}

type connection struct {
	im     store.Impl
	bundle []byte
	at     time.Time
	probe  *store.Object
	want   [32]byte // fingerprint: a re-parse makes new objects
}

func (c *connection) build() (store.Store, error) {
	objs, problems := corpus.ParsePEM(c.bundle, "bundle")
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return fill(c.im, objs)
}

func (c *connection) lookup(s store.Store) error {
	got, ok := s.Issuer(c.probe, c.at)
	if !ok || got.Fingerprint != c.want {
		return fmt.Errorf("%s: wrong issuer for %v: got %v", c.im.Name, c.probe, describe(got))
	}
	return nil
}

// reloadProbe picks the certificate each connection looks up: a leaf whose
// issuer is present, or, for a bundle without leaves, a CA whose issuer is;
// the answer expected is the store's rule's.
func reloadProbe(c *corpus.Corpus, rule store.Rule) (probe *store.Object, want [32]byte, err error) {
	candidates := c.CAs
	for _, l := range c.Hits {
		candidates = append([]*store.Object{l.Cert}, candidates...)
		break
	}
	for _, cert := range candidates {
		if iss, ok := c.ExpectedBy(rule, cert); ok {
			return cert, iss.Fingerprint, nil
		}
	}
	return nil, want, fmt.Errorf("reload: corpus %s has no certificate whose issuer it holds", c.Source)
}
