// Package report turns results into what people and other tools read: the
// Go benchmark format (for benchstat), the seed tables, JMH-style
// throughput tables, CSV and JSON.
package report

import (
	"io"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/harness"
)

// WriteBenchfmt writes the results in the Go benchmark format, one line per
// cell and round, after the file-level configuration lines, so that
// unmodified benchstat reads them (benchstat -col /impl -row /threads).
func WriteBenchfmt(w io.Writer, res *harness.Results) error {
	var config []benchfmt.Config
	for _, kv := range res.Environment() {
		config = append(config, benchfmt.Config{Key: kv.Key, Value: []byte(kv.Value), File: true})
	}
	bw := benchfmt.NewWriter(w)
	for _, s := range res.Samples {
		r := &benchfmt.Result{Config: config, Name: benchfmt.Name(s.Cell.Name()), Iters: 1}
		for _, m := range s.Metrics {
			r.Values = append(r.Values, benchfmt.Value{Value: m.Value, Unit: m.Unit})
		}
		if err := bw.Write(r); err != nil {
			return err
		}
	}
	return nil
}
