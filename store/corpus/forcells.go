package corpus

import (
	"context"
	"fmt"
	"os"
)

// CacheEnv names the folder where a process keeps the corpora it
// generates for the next process of the same build (an A/B comparison
// gives each revision's processes one): a count under callgrind then loads
// what a measured process generated instead of generating it again at
// callgrind's speed.
const CacheEnv = "PERFRUN_CORPUS_CACHE"

// ForCells is the generated corpus a cell of cas CAs runs on: as many
// leaves as GeneratedLeaves gives, refused up front where it would not fit
// in memory, and kept in CacheEnv's folder where that is set, else in this
// process's cache (CachedContext).
func ForCells(ctx context.Context, seed uint64, cas int, progress func(done, total int)) (*Corpus, error) {
	hits, misses := GeneratedLeaves(cas)
	if err := FitsMemory(cas, hits+misses, fmt.Sprintf("certs=%d", cas)); err != nil {
		return nil, err
	}
	spec := Spec{Seed: seed, CAs: cas, Hits: hits, Misses: misses}
	if dir := os.Getenv(CacheEnv); dir != "" {
		return CachedIn(ctx, dir, spec, progress)
	}
	return CachedContext(ctx, spec, progress)
}
