package storetest

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// testConcurrent runs an adder, CRL replacers and readers at once and
// checks the contract's promises while they race: an added object is seen
// by every later call; a CRL replacement is never seen half done, not even
// in an Objects snapshot; lookups whose answer the additions cannot change
// keep returning it. Run it under -race.
func testConcurrent(t *testing.T, newStore func() store.Store) {
	skipWithoutReplace(t, newStore)
	c, err := corpus.Cached(corpus.Spec{Seed: 7, CAs: 160, Hits: 120, Misses: 10})
	if err != nil {
		t.Fatal(err)
	}
	s := newStore()
	half := len(c.CAs) / 2
	prefill, later := c.CAs[:half], c.CAs[half:]
	if _, err := s.Add(prefill...); err != nil {
		t.Fatal(err)
	}
	stable := stableLeaves(c, prefill)
	if len(stable) == 0 {
		t.Fatal("no leaf has an answer the later additions cannot change")
	}
	// Replaced issuers always hold exactly one CRL: version 0 or version 1.
	replaced := c.CRLs[:8]
	versions := make(map[store.Name][2]*store.Object)
	for _, crl := range replaced {
		versions[crl.Subject] = [2]*store.Object{crl, newCRLVersion(t, crl, 2)}
	}
	if _, err := s.Add(replaced...); err != nil {
		t.Fatal(err)
	}

	g, ctx := errgroup.WithContext(context.Background())
	var added atomic.Int64 // how many of later are known added
	g.Go(func() error {    // the adder, in corpus order
		for i, o := range later {
			if ctx.Err() != nil {
				return nil
			}
			if _, err := s.Add(o); err != nil {
				return err
			}
			added.Store(int64(i + 1))
			runtime.Gosched()
		}
		return nil
	})
	for w := range 2 { // CRL replacers
		g.Go(func() error {
			for i := 0; ctx.Err() == nil && i < 400; i++ {
				crl := replaced[(i+w)%len(replaced)]
				v := versions[crl.Subject][i%2]
				if n, err := s.ReplaceCRLs(crl.Subject, v); err != nil || n != 1 {
					return fmt.Errorf("ReplaceCRLs removed %d, %v; want exactly 1", n, err)
				}
			}
			return nil
		})
	}
	for w := range 3 { // readers
		g.Go(func() error {
			for i := 0; ctx.Err() == nil && i < 2000; i++ {
				if err := readOnce(s, c, later, &added, stable, versions, i+w); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	// Quiescent: the store holds the whole corpus in corpus order, so every
	// leaf gets exactly the corpus's expected answer.
	for _, l := range c.Hits {
		if got, _ := s.Issuer(l.Cert, c.At); got != l.Issuer {
			t.Fatalf("after the race, Issuer(%v) = %v, want %v", l.Cert, got, l.Issuer)
		}
	}
}

func readOnce(s store.Store, c *corpus.Corpus, later []*store.Object, added *atomic.Int64,
	stable []corpus.Leaf, versions map[store.Name][2]*store.Object, i int) error {
	switch i % 4 {
	case 0: // visibility of completed adds
		n := added.Load()
		if n == 0 {
			return nil
		}
		o := later[n-1]
		if !slices.Contains(s.BySubject(store.Cert, o.Subject), o) {
			return fmt.Errorf("%v was added but BySubject does not show it", o)
		}
	case 1:
		l := stable[i%len(stable)]
		if got, _ := s.Issuer(l.Cert, c.At); got != l.Issuer {
			return fmt.Errorf("Issuer(%v) = %v during the race, want %v", l.Cert, got, l.Issuer)
		}
	case 2:
		for name := range versions {
			if got := s.BySubject(store.CRL, name); len(got) != 1 {
				return fmt.Errorf("BySubject(CRL) saw %d CRLs of a replaced issuer, want 1", len(got))
			}
			break
		}
	case 3:
		return oneCRLEach(s.Objects(), versions)
	}
	return nil
}

// oneCRLEach checks that a snapshot holds exactly one CRL of each issuer
// whose CRLs are being replaced: a replacement is atomic.
func oneCRLEach(snapshot []*store.Object, versions map[store.Name][2]*store.Object) error {
	count := make(map[store.Name]int)
	for _, o := range snapshot {
		if _, ok := versions[o.Subject]; ok && o.Kind == store.CRL {
			count[o.Subject]++
		}
	}
	for name := range versions {
		if count[name] != 1 {
			return fmt.Errorf("an Objects snapshot holds %d CRLs of a replaced issuer, want 1", count[name])
		}
	}
	return nil
}

// stableLeaves returns the leaves whose answer on prefill is already the
// final one and time-valid: CAs added later come later in insertion order,
// so they cannot change it.
func stableLeaves(c *corpus.Corpus, prefill []*store.Object) []corpus.Leaf {
	var out []corpus.Leaf
	for _, l := range c.Hits {
		var cands []*store.Object
		for _, ca := range prefill {
			if ca.Subject == l.Cert.Issuer {
				cands = append(cands, ca)
			}
		}
		got, ok := store.SelectIssuer(l.Cert, c.At, cands)
		if ok && got == l.Issuer && store.TimeValid(got, c.At) {
			out = append(out, l)
		}
	}
	return out
}
