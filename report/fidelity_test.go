package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// TestFidelityLine: a run with a real store prints each design's 1 → 2
// thread throughput beside it, per parameters but the cost; a run of
// models alone does not.
func TestFidelityLine(t *testing.T) {
	file := `cores: 2
library-openssl: OpenSSL 3.0.19
BenchmarkIssuer/impl=sorted/certs=64/hit=1/threads=1 1 500 ns/op
BenchmarkIssuer/impl=sorted/certs=64/hit=1/threads=2 1 1000 ns/op
BenchmarkIssuer/impl=sorted/certs=64/hit=1/cost=real/threads=1 1 2000 ns/op
BenchmarkIssuer/impl=sorted/certs=64/hit=1/cost=real/threads=2 1 2500 ns/op
BenchmarkIssuer/impl=openssl/certs=64/hit=1/threads=1 1 3000 ns/op
BenchmarkIssuer/impl=openssl/certs=64/hit=1/threads=2 1 3750 ns/op
`
	out := func(text string) string {
		s, err := records.Read(strings.NewReader(text), "r.txt", "r")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		report.WriteThreadTables(&b, s, 2)
		return b.String()
	}
	want := "  certs=64/hit=1: sorted 0.50×, sorted cost=real 0.80×, openssl (OpenSSL 3.0.19) 0.80×\n"
	if got := out(file); !strings.Contains(got, want) {
		t.Errorf("no fidelity line %q in:\n%s", want, got)
	}
	if got := out(strings.Replace(file, "library-openssl: OpenSSL 3.0.19\n", "", 1)); strings.Contains(got, "beside the real store") {
		t.Errorf("a run of models alone printed a fidelity line:\n%s", got)
	}
	// A busy machine set every 2-thread cell aside: nothing to put beside
	// the real store, so no heading over nothing.
	var ones []string
	for _, l := range strings.Split(file, "\n") {
		if !strings.Contains(l, "threads=2") {
			ones = append(ones, l)
		}
	}
	if got := out(strings.Join(ones, "\n")); strings.Contains(got, "beside the real store") {
		t.Errorf("no 2-thread cell, yet a fidelity heading:\n%s", got)
	}
}
