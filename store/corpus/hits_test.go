package corpus

import (
	"path/filepath"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
)

// TestEveryHitHasItsIssuer: at these seeds the last CA family, cut to fit
// certs=1024, left leaves naming a key or spelling only a dropped
// certificate had (1021 hits of 1024 at seed 718), and the corpus cache
// refused every such corpus as not the spec's, so each process generated
// it again. Each generated corpus holds the hits its spec names, and
// reads back from the cache.
func TestEveryHitHasItsIssuer(t *testing.T) {
	if testing.Short() {
		t.Skip("generates five corpora of 1024 CAs")
	}
	needs.NoRace(t, "five corpora generated, which the detector makes eight times slower; Generate's goroutines are raced in every other test that generates one")
	hits, misses := GeneratedLeaves(1024)
	for _, seed := range []uint64{6, 7, 11, 717, 718} {
		spec := Spec{Seed: seed, CAs: 1024, Hits: hits, Misses: misses}
		c, err := Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Hits) != hits || len(c.Misses) != misses {
			t.Errorf("seed %d: %d hits and %d misses, want the spec's %d and %d", seed, len(c.Hits), len(c.Misses), hits, misses)
		}
		path := filepath.Join(t.TempDir(), "c.gob")
		if err := save(path, spec, c); err != nil {
			t.Fatal(err)
		}
		back, err := load(path, spec)
		if err != nil {
			t.Errorf("seed %d: the cache refuses its own corpus: %v", seed, err)
		} else if back.Digest != c.Digest {
			t.Errorf("seed %d: read back as %s, want %s", seed, back.Digest, c.Digest)
		}
	}
}
