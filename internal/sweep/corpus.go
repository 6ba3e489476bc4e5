package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// fitLoad lowers the load workload's n to what a loaded corpus holds: it
// loads all of it instead, and says so.
func fitLoad(params []string, provider func(int) (*corpus.Corpus, error), stderr io.Writer) []string {
	c, err := provider(0)
	if err != nil {
		return params
	}
	objects := len(c.Objects())
	var values []string
	for _, p := range params {
		if v, ok := strings.CutPrefix(p, "n="); ok {
			values = append(values, harness.SplitList(v)...)
		}
	}
	if len(values) == 0 {
		for _, p := range workloads.Load.Params {
			if p.Name == "n" {
				values = []string{p.Default}
			}
		}
	}
	var fitted []string
	for _, v := range values {
		if n, err := strconv.Atoi(v); err == nil && n > objects {
			fmt.Fprintf(stderr, "perfrun: run: load n=%d: the loaded corpus holds %d objects; loading all of them (n=%d)\n", n, objects, objects)
			v = strconv.Itoa(objects)
		}
		if !slices.Contains(fitted, v) {
			fitted = append(fitted, v)
		}
	}
	return append(withoutParam(params, "n"), "n="+strings.Join(fitted, ","))
}

// ProgressAfter returns a progress reporter that stays quiet for the
// first two seconds of work (most corpora are made in less), then says
// how far it got, about every few seconds.
func ProgressAfter(w io.Writer, what, unit string) func(done, total int) {
	start := time.Now()
	var last time.Time
	return func(done, total int) {
		now := time.Now()
		if now.Sub(start) < 2*time.Second || now.Sub(last) < 3*time.Second || total == 0 {
			return
		}
		last = now
		fmt.Fprintf(w, "perfrun: %s: %d of %d %s (%d%%)\n", what, done, total, unit, 100*done/total)
	}
}

// CorpusProvider returns where cells get their corpus: generated per size
// from the seed, or one loaded corpus for every cell (then loaded is its
// number of CAs).
func CorpusProvider(ctx context.Context, path string, strict bool, seed uint64, stderr io.Writer) (provider func(int) (*corpus.Corpus, error), loaded int, err error) {
	if path == "" {
		return func(cas int) (*corpus.Corpus, error) {
			return corpus.ForCells(ctx, seed, cas, ProgressAfter(stderr, "generating corpus", "objects"))
		}, 0, nil
	}
	loading := ProgressAfter(stderr, "loading "+path, "MiB")
	c, problems, err := corpus.LoadContext(ctx, path, strict, func(done, total int64) {
		loading(int(done>>20), int(max(total>>20, 1)))
	})
	for _, p := range problems {
		if !strict {
			fmt.Fprintf(stderr, "perfrun: run: skipped %v\n", p)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, err
		}
		// What the corpus holds is input: bad PEM, a file too large, one
		// that cannot be read are the user's to fix (exit 2).
		return nil, 0, subcommand.AsUsage(err)
	}
	dups := ""
	if c.Duplicates > 0 {
		dups = fmt.Sprintf(" (%d duplicates listed again, kept once)", c.Duplicates)
	}
	fmt.Fprintf(stderr, "perfrun: corpus %s: %d CAs, %d CRLs, %d leaves with issuer, %d without%s\n",
		path, len(c.CAs), len(c.CRLs), len(c.Hits), len(c.Misses), dups)
	return func(int) (*corpus.Corpus, error) { return c, nil }, max(len(c.CAs), 1), nil
}

// shareCorpora has this run's generated corpora kept in a scratch folder
// its counting processes read (corpus.CacheEnv), so that a count under
// callgrind loads the corpus the run generated instead of generating it
// again at callgrind's speed; where the user named a folder, that one.
// The returned func removes the folder.
func shareCorpora() (func(), error) {
	if os.Getenv(corpus.CacheEnv) != "" {
		return func() {}, nil
	}
	dir, err := scratch.Dir("corpus-")
	if err != nil {
		return nil, err
	}
	if err := os.Setenv(corpus.CacheEnv, dir); err != nil {
		scratch.Remove(dir)
		return nil, err
	}
	return func() {
		os.Unsetenv(corpus.CacheEnv)
		scratch.Remove(dir)
	}, nil
}
