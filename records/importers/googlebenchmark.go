package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// googleFile is the part of Google Benchmark's --benchmark_format=json
// that perfrun reads: the context (cores, date) and every run.
type googleFile struct {
	Context struct {
		Date    string `json:"date"`
		NumCPUs int    `json:"num_cpus"`
	} `json:"context"`
	Benchmarks []struct {
		Name           string   `json:"name"`
		RunName        string   `json:"run_name"`
		RunType        string   `json:"run_type"`
		Iterations     int      `json:"iterations"`
		RealTime       *float64 `json:"real_time"`
		CPUTime        *float64 `json:"cpu_time"`
		TimeUnit       string   `json:"time_unit"`
		BytesPerSecond *float64 `json:"bytes_per_second"`
		ItemsPerSecond *float64 `json:"items_per_second"`
		ErrorOccurred  bool     `json:"error_occurred"`
	} `json:"benchmarks"`
}

// googleUnits are Google Benchmark's time units in nanoseconds.
var googleUnits = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

// readGoogleBenchmark reads Google Benchmark's JSON: one record per run
// (each repetition; the mean/median/stddev aggregates are left out, as
// perfrun's statistics make their own), its real time per iteration as
// ns/op, its CPU time as cpu-ns/op, and bytes and items per second where
// the benchmark set them. Names keep the family and become Go name keys:
// BM_MapFind/64/threads:2 is BM_MapFind/arg=64/threads=2. The context's
// CPU count is the cores: line, so cells above it are never gated.
func readGoogleBenchmark(r io.Reader, file string) (*records.Set, error) {
	var f googleFile
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w --benchmark_format=json writes: %w", file, ErrFormat, err)
	}
	if len(f.Benchmarks) == 0 {
		return nil, fmt.Errorf("%s: %w --benchmark_format=json writes: no benchmarks", file, ErrFormat)
	}
	cfg := config("Google Benchmark", file)
	if f.Context.NumCPUs > 0 {
		cfg = append(cfg, benchfmt.Config{Key: "cores", Value: []byte(strconv.Itoa(f.Context.NumCPUs)), File: true})
	}
	if f.Context.Date != "" {
		cfg = append(cfg, benchfmt.Config{Key: "date", Value: []byte(f.Context.Date), File: true})
	}
	set := records.New("", file)
	for _, b := range f.Benchmarks {
		if b.RunType == "aggregate" || b.ErrorOccurred {
			continue
		}
		scale, ok := googleUnits[b.TimeUnit]
		if b.RealTime == nil || !ok {
			return nil, fmt.Errorf("%s: %w --benchmark_format=json writes: %q has no real_time in a known unit", file, ErrFormat, b.Name)
		}
		values := []benchfmt.Value{records.Value(*b.RealTime*scale, records.NsPerOp)}
		if b.CPUTime != nil {
			values = append(values, benchfmt.Value{Value: *b.CPUTime * scale, Unit: records.CPUPerOp})
		}
		if b.BytesPerSecond != nil {
			values = append(values, benchfmt.Value{Value: *b.BytesPerSecond, Unit: "B/s"})
		}
		if b.ItemsPerSecond != nil {
			values = append(values, benchfmt.Value{Value: *b.ItemsPerSecond, Unit: "items/s"})
		}
		for _, v := range values {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				return nil, fmt.Errorf("%s: %q has a value that is not a number", file, b.Name)
			}
		}
		set.Add(&benchfmt.Result{Config: cfg, Name: benchfmt.Name(googleName(b.RunName, b.Name)), Iters: max(b.Iterations, 1), Values: values})
	}
	if len(set.Records) == 0 {
		return nil, fmt.Errorf("%s: no run without an error", file)
	}
	return set, nil
}

// googleName turns BM_X/64/8/threads:2 into BM_X/arg=64/arg2=8/threads=2.
func googleName(runName, name string) string {
	if runName == "" {
		runName = name
	}
	parts := strings.Split(runName, "/")
	out := []string{benchName(parts[0])}
	args := 0
	for _, p := range parts[1:] {
		if k, v, ok := strings.Cut(p, ":"); ok {
			out = append(out, benchName(k)+"="+benchName(v))
			continue
		}
		args++
		key := "arg"
		if args > 1 {
			key += strconv.Itoa(args)
		}
		out = append(out, key+"="+benchName(p))
	}
	return strings.Join(out, "/")
}
