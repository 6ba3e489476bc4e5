package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/changepoint"
)

// A history of twelve commits, each measured in three rounds, where the
// seventh made the lookups 20% slower: FindSteps names the commits on
// either side of the step and its size.
func ExampleDB_Add() {
	dir, err := os.MkdirTemp("", "history-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	h, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		panic(err)
	}
	defer h.Close()

	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		level := 100.0
		if i >= 6 {
			level = 120
		}
		results := "goos: linux\n"
		for _, f := range []float64{1, 1.01, 0.99} {
			results += fmt.Sprintf("BenchmarkIssuer/impl=rcu/threads=1 1 %g ns/op\n", level*f)
		}
		commit := fmt.Sprintf("%02x%s", i+1, "c0ffee0000c0ffee0000c0ffee0000c0ffee00")
		o := history.AddOptions{Commit: commit, CommitTime: day.AddDate(0, 0, i), Machine: "box"}
		if _, err := h.Add(ctx, fmt.Sprintf("run-%d.txt", i), []byte(results), o); err != nil {
			panic(err)
		}
	}

	series, err := h.Series(ctx, history.Filter{})
	if err != nil {
		panic(err)
	}
	steps, err := history.FindSteps(ctx, series, changepoint.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, st := range steps {
		rel, lo, hi := st.Relative()
		fmt.Printf("%s: %s..%s %+.0f%% [%+.0f%%, %+.0f%%], regression %v\n", st.Series.Name(),
			history.ShortCommit(st.Before), history.ShortCommit(st.After), 100*rel, 100*lo, 100*hi, st.Regression)
	}
	// Output:
}
