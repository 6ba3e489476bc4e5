//go:build openssl

package openssl_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store/corpus"
)

var leakLookups = flag.Int("perfrun.leak", 0, "TestNoLeak: lookups per store (10 stores); 0 skips it")

// rss is the process's resident set in MiB (/proc/self/statm).
func rss(t *testing.T) float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.Atoi(f[1])
	return float64(pages*os.Getpagesize()) / (1 << 20)
}

// TestNoLeak builds a store of 1024 CAs ten times and looks up its
// leaves -perfrun.leak times in each, dropping every store: with every C
// object freed, the resident set stops growing after the first stores
// (go test -tags openssl -run NoLeak -perfrun.leak 1000000 -v).
func TestNoLeak(t *testing.T) {
	if *leakLookups <= 0 {
		t.Skip("set -perfrun.leak=N to run")
	}
	c, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 1024, Hits: 1024, Misses: 64})
	if err != nil {
		t.Fatal(err)
	}
	var after []float64
	for round := range 10 {
		s := openssl.New()
		if _, err := s.Add(c.Objects()...); err != nil {
			t.Fatal(err)
		}
		for i := range *leakLookups {
			l := c.Hits[i%len(c.Hits)]
			if _, ok := s.Issuer(l.Cert, c.At); !ok {
				t.Fatalf("no issuer for %v", l.Cert)
			}
		}
		s = nil
		runtime.GC()
		runtime.GC() // the second runs the cleanups the first queued
		after = append(after, rss(t))
		t.Logf("store %d: %d lookups, RSS %.1f MiB", round+1, *leakLookups, after[round])
	}
	if grew := after[9] - after[2]; grew > 8 {
		t.Errorf("RSS grew %.1f MiB from the third store to the tenth: a leak", grew)
	}
}
