package harness_test

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/harness"
)

// FuzzParseThreads: any thread list either fails or gives counts from 1
// to MaxThreads, each once, quickly (a range once looped forever).
func FuzzParseThreads(f *testing.F) {
	for _, s := range []string{"1", "1,2,4,8", "1-18/2", "9223372036854775806-9223372036854775807", "1-1024/1", "0", "4-2", "2/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := harness.ParseThreads(s)
		if err != nil {
			return
		}
		seen := make(map[int]bool)
		for _, n := range got {
			if n < 1 || n > harness.MaxThreads || seen[n] {
				t.Fatalf("ParseThreads(%q) = %v", s, got)
			}
			seen[n] = true
		}
	})
}

// FuzzParseLabel: an accepted label is one line, with a key that is not
// one perfrun writes.
func FuzzParseLabel(f *testing.F) {
	for _, s := range []string{"machine=x", "cores=64", "a=b\nBenchmarkX 1 1 ns/op", "k=v=w", "=", "é=1", "BenchmarkX=1 5 ns/op"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kv, err := harness.ParseLabel(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(kv.Value, "\n\r") || kv.Key == "" || strings.ContainsAny(kv.Key, " :\n=") || kv.Key == "cores" {
			t.Fatalf("ParseLabel(%q) = %+v", s, kv)
		}
		// Written as a configuration line, it reads back as one, never as
		// a result.
		r := benchfmt.NewReader(strings.NewReader(kv.Key+": "+kv.Value+"\n"), "label")
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				t.Fatalf("ParseLabel(%q) reads back as result %s", s, res.Name)
			}
		}
	})
}
