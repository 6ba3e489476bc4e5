package report_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// The per-thread tables of a results file, as OpenSSL PR 28599 printed
// them: each design's mean and variance per thread count, then the
// designs side by side with their speedups.
func ExampleWriteThreadTables() {
	var file strings.Builder
	file.WriteString("cores: 2\n")
	for _, r := range []struct {
		impl    string
		threads int
		ns      []float64
	}{
		{"sorted", 1, []float64{1170, 1180, 1176}},
		{"sorted", 2, []float64{2040, 2050, 2049}},
		{"rcu", 1, []float64{745, 750, 748}},
		{"rcu", 2, []float64{765, 770, 767}},
	} {
		for _, ns := range r.ns {
			ops := float64(r.threads) * 1e9 / ns // every worker busy the whole window
			fmt.Fprintf(&file, "BenchmarkIssuer/impl=%s/certs=1024/threads=%d 1 %g ns/call %.0f ops/s\n", r.impl, r.threads, ns, ops)
		}
	}
	s, err := records.Read(strings.NewReader(file.String()), "results.txt", "")
	if err != nil {
		panic(err)
	}
	report.WriteThreadTables(os.Stdout, s, s.Cores())
	// Output:
	// ## Issuer/certs=1024
	//
	// sorted
	//
	// | Threads | mean/ns | var/ns² |
	// |---------+---------+---------|
	// |       1 | 1175.33 |   25.33 |
	// |       2 | 2046.33 |   30.33 |
	//
	// rcu
	//
	// | Threads | mean/ns | var/ns² |
	// |---------+---------+---------|
	// |       1 |  747.67 |    6.33 |
	// |       2 |  767.33 |    6.33 |
	//
	// side by side: mean ns/call ± std (speedup: threads × mean(1) ÷ mean(n), from these means)
	//
	// | Threads | sorted                   | rcu                      |
	// |---------|--------------------------|--------------------------|
	// |       1 |  1175.3 ± 5.0            |   747.7 ± 2.5            |
	// |       2 |  2046.3 ± 5.5    (1.15x) |   767.3 ± 2.5    (1.95x) |
	//
	// mean and var: time one worker spends per call (ns/call), over rounds, as in OpenSSL PR 28599's tables.
}
