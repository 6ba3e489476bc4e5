package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/ab"
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
			values = append(values, splitList(v)...)
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

// caBytes and leafBytes are what one generated CA (with its CRL) and one
// leaf cost in memory once parsed, rounded up (results/notes.md, "A
// corpus in memory").
const (
	caBytes   = 7 << 10
	leafBytes = 4 << 10
)

// generatedLeaves are the leaves a run generates beside cas CAs: a hit
// for each CA up to 4096, and a quarter as many misses.
func generatedLeaves(cas int) (hits, misses int) {
	hits = min(cas, 4096)
	return hits, max(hits/4, 1)
}

// fitsMemory refuses, up front, a generated corpus this machine cannot
// hold, rather than generating for minutes and then dying of OOM.
// what names the request in the message (certs=N, -cas N).
func fitsMemory(cas, leaves int, what string) error {
	need := uint64(min(cas, 1<<40))*caBytes + uint64(min(leaves, 1<<40))*leafBytes // no overflow for any int
	if avail := availableMemory(); avail > 0 && need > avail*8/10 {
		return fmt.Errorf("%s needs about %s for its corpus; this machine has %s available", what, bytesText(need), bytesText(avail))
	}
	return nil
}

// availableMemory is /proc/meminfo's MemAvailable in bytes, 0 where unknown.
func availableMemory() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func bytesText(b uint64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(b)/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

// progressAfter returns a progress reporter that stays quiet for the
// first two seconds of work (most corpora are made in less), then says
// how far it got, about every few seconds.
func progressAfter(w io.Writer, what, unit string) func(done, total int) {
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

// corpusProvider returns where cells get their corpus: generated per size
// from the seed, or one loaded corpus for every cell (then loaded is its
// number of CAs).
func corpusProvider(ctx context.Context, path string, strict bool, seed uint64, stderr io.Writer) (provider func(int) (*corpus.Corpus, error), loaded int, err error) {
	if path == "" {
		return func(cas int) (*corpus.Corpus, error) {
			hits, misses := generatedLeaves(cas)
			if err := fitsMemory(cas, hits+misses, fmt.Sprintf("certs=%d", cas)); err != nil {
				return nil, err
			}
			spec := corpus.Spec{Seed: seed, CAs: cas, Hits: hits, Misses: misses}
			progress := progressAfter(stderr, "generating corpus", "objects")
			if dir := os.Getenv(ab.CorpusCacheEnv); dir != "" {
				return corpus.CachedIn(ctx, dir, spec, progress)
			}
			return corpus.CachedContext(ctx, spec, progress)
		}, 0, nil
	}
	loading := progressAfter(stderr, "loading "+path, "MiB")
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
		return nil, 0, asUsage(err)
	}
	dups := ""
	if c.Duplicates > 0 {
		dups = fmt.Sprintf(" (%d duplicates listed again, kept once)", c.Duplicates)
	}
	fmt.Fprintf(stderr, "perfrun: corpus %s: %d CAs, %d CRLs, %d leaves with issuer, %d without%s\n",
		path, len(c.CAs), len(c.CRLs), len(c.Hits), len(c.Misses), dups)
	return func(int) (*corpus.Corpus, error) { return c, nil }, max(len(c.CAs), 1), nil
}
