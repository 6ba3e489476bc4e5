package corpus

import "sync"

var cache struct {
	sync.Mutex
	m map[Spec]*Corpus
}

// Cached returns Generate(spec), generating each spec once per process.
// Corpora are immutable, so callers share them.
func Cached(spec Spec) (*Corpus, error) {
	cache.Lock()
	defer cache.Unlock()
	if c, ok := cache.m[spec]; ok {
		return c, nil
	}
	c, err := Generate(spec)
	if err != nil {
		return nil, err
	}
	if cache.m == nil {
		cache.m = make(map[Spec]*Corpus)
	}
	cache.m[spec] = c
	return c, nil
}
