package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestHyperfineRoundTrip: a file hyperfine 1.15 wrote here
// (hyperfine --runs 10 --warmup 2 --export-json, two commands) reads into
// one cell per command holding every run, in seconds, and survives being
// written as a results file and read back.
func TestHyperfineRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/hyperfine-1.15.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Results []struct {
			Command string    `json:"command"`
			Times   []float64 `json:"times"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	im, err := Lookup("hyperfine")
	if err != nil {
		t.Fatal(err)
	}
	set, err := im.Read(bytes.NewReader(data), "hyperfine-1.15.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := set.Write(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	back, err := records.Read(strings.NewReader(text), "imported.txt", "imported")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range raw.Results {
		c, ok := back.Cell(benchName(r.Command))
		if !ok {
			t.Fatalf("no cell for %q in:\n%s", r.Command, text)
		}
		got := c.Values["sec/op"]
		if len(got) != len(r.Times) {
			t.Fatalf("%s: %d values, want the %d runs", r.Command, len(got), len(r.Times))
		}
		for i := range got {
			if d := got[i] - r.Times[i]; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s run %d: %g s, hyperfine says %g", r.Command, i, got[i], r.Times[i])
			}
		}
	}
	if !strings.Contains(text, "imported: hyperfine") {
		t.Errorf("no imported: line:\n%s", text)
	}
}

// TestHyperfineRefusesOthers: JSON that is not hyperfine's, and text, are
// refused as not the format.
func TestHyperfineRefusesOthers(t *testing.T) {
	for name, text := range map[string]string{
		"text":       "BenchmarkA 1 100 ns/op\n",
		"other json": `{"benchmarks": [{"name": "BM_x", "real_time": 3}]}`,
		"no times":   `{"results": [{"command": "x", "mean": 1}]}`,
	} {
		if _, err := readHyperfine(strings.NewReader(text), name); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
}
