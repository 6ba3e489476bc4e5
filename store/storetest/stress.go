package storetest

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// stressFor is how long the stress test runs: $PERFRUN_STRESS (e.g. 2m;
// use with -race), read when it runs, so importing the suite defines no
// flag in anyone's binary.
func stressFor() (time.Duration, error) {
	v := os.Getenv("PERFRUN_STRESS")
	if v == "" {
		return 0, nil
	}
	return time.ParseDuration(v)
}

// testStress runs readers, an adder and CRL replacers against one store for
// $PERFRUN_STRESS, checking every answer: every lookup against the
// corpus's expected issuer, every BySubject and Objects against what the
// adder has published (a prefix of its insertion order), every snapshot
// for exactly one CRL per replaced issuer.
func testStress(t *testing.T, newStore func() store.Store) {
	stress, err := stressFor()
	if err != nil {
		t.Fatalf("PERFRUN_STRESS: %v", err)
	}
	if stress <= 0 {
		t.Skip("set PERFRUN_STRESS=DURATION to run")
	}
	skipWithoutReplace(t, newStore)
	c, err := corpus.Cached(corpus.Spec{Seed: 11, CAs: 256, Hits: 256, Misses: 32})
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := corpus.Bucket(11, 4096)
	if err != nil {
		t.Fatal(err)
	}
	s := newStore()
	if _, err := s.Add(c.Objects()...); err != nil {
		t.Fatal(err)
	}
	replaced := c.CRLs[:16]
	versions := make(map[store.Name][2]*store.Object)
	for _, crl := range replaced {
		versions[crl.Subject] = [2]*store.Object{crl, newCRLVersion(t, crl, 2)}
	}
	position := make(map[*store.Object]int, len(bucket))
	for i, o := range bucket {
		position[o] = i
	}
	leaves := append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...)

	timeout, cancel := context.WithTimeout(context.Background(), stress)
	defer cancel()
	g, ctx := errgroup.WithContext(timeout)
	var published atomic.Int64
	var lookups, snapshots atomic.Int64
	addBucket(ctx, g, s, bucket, &published)
	for w := range 2 {
		g.Go(func() error { // CRL replacers
			for i := w; ctx.Err() == nil; i += 2 {
				crl := replaced[i%len(replaced)]
				v := versions[crl.Subject][(i/len(replaced))%2]
				if n, err := s.ReplaceCRLs(crl.Subject, v); err != nil || n != 1 {
					return fmt.Errorf("ReplaceCRLs removed %d (%v), want 1", n, err)
				}
			}
			return nil
		})
	}
	for w := range 4 {
		g.Go(func() error { // readers
			for i := w; ctx.Err() == nil; i++ {
				if i%64 == 0 {
					snapshots.Add(1)
					if err := checkSnapshot(s, published.Load(), position, versions); err != nil {
						return err
					}
					continue
				}
				l := &leaves[i%len(leaves)]
				if got, _ := s.Issuer(l.Cert, c.At); got != l.Issuer {
					return fmt.Errorf("Issuer(%v) = %v, want %v", l.Cert, got, l.Issuer)
				}
				lookups.Add(1)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: %d lookups and %d snapshots checked, %d certificates added under one name",
		stress, lookups.Load(), snapshots.Load(), published.Load())
}

// addBucket starts the adder: the bucket's certificates in order, then
// their duplicates, published counting those added.
func addBucket(ctx context.Context, g *errgroup.Group, s store.Store, bucket []*store.Object, published *atomic.Int64) {
	g.Go(func() error {
		for i := 0; ctx.Err() == nil; i++ {
			o := bucket[i%len(bucket)]
			n, err := s.Add(o)
			if err != nil {
				return err
			}
			if want := i < len(bucket); (n == 1) != want {
				return fmt.Errorf("Add(bucket %d) added %d", i%len(bucket), n)
			}
			if i < len(bucket) {
				published.Store(int64(i + 1))
			}
		}
		return nil
	})
}

// checkSnapshot checks BySubject and Objects against the adder's progress:
// at least the published count, and always a prefix of its order.
func checkSnapshot(s store.Store, published int64, position map[*store.Object]int,
	versions map[store.Name][2]*store.Object) error {
	var bucketName store.Name
	for o := range position {
		bucketName = o.Subject
		break
	}
	by := s.BySubject(store.Cert, bucketName)
	if int64(len(by)) < published {
		return fmt.Errorf("BySubject shows %d bucket certificates after %d were added", len(by), published)
	}
	for i, o := range by {
		if position[o] != i {
			return fmt.Errorf("BySubject[%d] is bucket certificate %d: insertion order lost", i, position[o])
		}
	}
	snapshot := s.Objects()
	seen := 0
	for _, o := range snapshot {
		if _, ok := position[o]; ok {
			seen++
		}
	}
	if int64(seen) < published {
		return fmt.Errorf("Objects shows %d bucket certificates after %d were added", seen, published)
	}
	return oneCRLEach(snapshot, versions)
}
