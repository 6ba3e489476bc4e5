package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// TestOnOnePairAChangeMeasuresTheSame: the README says what the held files
// of campaigns on one pair of cores give, for each change measured more
// than once: the least miss any one prediction could have against all its
// measurements.
func TestOnOnePairAChangeMeasuresTheSame(t *testing.T) {
	files, err := filepath.Glob("held-far-*.txt")
	if err != nil || len(files) != 3 {
		t.Fatalf("held files %v, %v; want three", files, err)
	}
	var sets [][]predict.HeldChange
	for _, file := range files {
		set, err := records.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := predict.HeldChanges(set)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, changes)
	}
	f := predict.FloorOver("", predict.Again(2, sets...))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("**Median %.0f%%, worst %.0f%%**", 100*f.Median, 100*f.Worst)
	if f.Changes != 5 || !strings.Contains(string(readme), want) {
		t.Errorf("the held files give %d changes measured again, %s; the README says otherwise", f.Changes, want)
	}
}
