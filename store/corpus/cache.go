package corpus

import (
	"context"
	"sync"
)

var cache struct {
	sync.Mutex
	m map[Spec]*Corpus
}

// Cached returns Generate(spec), generating each spec once per process.
// Corpora are immutable, so callers share them.
func Cached(spec Spec) (*Corpus, error) { return CachedContext(context.Background(), spec, nil) }

// CachedContext is Cached with GenerateContext's cancellation and progress;
// a cancelled generation is not cached.
func CachedContext(ctx context.Context, spec Spec, progress func(done, total int)) (*Corpus, error) {
	cache.Lock()
	defer cache.Unlock()
	if c, ok := cache.m[spec]; ok {
		return c, nil
	}
	c, err := GenerateContext(ctx, spec, progress)
	if err != nil {
		return nil, err
	}
	put(spec, c)
	return c, nil
}

// put keeps c as spec's corpus; the caller holds cache's lock.
func put(spec Spec, c *Corpus) {
	if cache.m == nil {
		cache.m = make(map[Spec]*Corpus)
	}
	cache.m[spec] = c
}
