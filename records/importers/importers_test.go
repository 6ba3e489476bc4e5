package importers

import (
	"bytes"
	"compress/bzip2"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// testdata reads a file another tool wrote (testdata/README.md).
func testdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".bz2") { // kept compressed: the module's download is small
		if data, err = io.ReadAll(bzip2.NewReader(bytes.NewReader(data))); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// roundTrip imports data with the named importer, writes the set as a
// results file and reads it back, as compare, gate and history will.
func roundTrip(t *testing.T, format string, data []byte, file string) (back *records.Set, text string) {
	t.Helper()
	im, err := Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	set, err := im.Read(bytes.NewReader(data), file)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := set.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err = records.Read(strings.NewReader(buf.String()), file+".txt", format)
	if err != nil {
		t.Fatal(err)
	}
	return back, buf.String()
}

// TestHyperfineRoundTrip: a file hyperfine 1.15 wrote here
// (hyperfine --runs 10 --warmup 2 --export-json, two commands) reads into
// one cell per command holding every run, in seconds, and survives being
// written as a results file and read back.
func TestHyperfineRoundTrip(t *testing.T) {
	data := testdata(t, "hyperfine-1.15.json")
	var raw struct {
		Results []struct {
			Command string    `json:"command"`
			Times   []float64 `json:"times"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	back, text := roundTrip(t, "hyperfine", data, "hyperfine-1.15.json")
	for _, r := range raw.Results {
		c, ok := back.Cell(benchName(r.Command))
		if !ok {
			t.Fatalf("no cell for %q in:\n%s", r.Command, text)
		}
		// A 0 is a run shorter than the shell's start hyperfine took off:
		// no time of the command (true's runs are mostly 0 here).
		var times []float64
		for _, x := range r.Times {
			if x > 0 {
				times = append(times, x)
			}
		}
		got := c.Values["sec/op"]
		if len(got) != len(times) {
			t.Fatalf("%s: %d values, want the %d runs that took time", r.Command, len(got), len(times))
		}
		for i := range got {
			if d := got[i] - times[i]; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s run %d: %g s, hyperfine says %g", r.Command, i, got[i], times[i])
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

// TestGoogleBenchmarkRoundTrip: a file a Google Benchmark 1.7.1 binary
// wrote here (std::map finds at 64 and 4096 keys, 1 and 2 threads, five
// repetitions) reads into one cell per run name with every repetition,
// the aggregates left out, threads as perfrun's key and the CPU count as
// cores; it survives a write and a read.
func TestGoogleBenchmarkRoundTrip(t *testing.T) {
	data := testdata(t, "googlebenchmark-1.7.1.json.bz2")
	var raw struct {
		Benchmarks []struct {
			RunName  string  `json:"run_name"`
			RunType  string  `json:"run_type"`
			RealTime float64 `json:"real_time"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	back, _ := roundTrip(t, "googlebenchmark", data, "gb.json")
	want := make(map[string][]float64)
	for _, b := range raw.Benchmarks {
		if b.RunType == "iteration" {
			want[googleName(b.RunName, "")] = append(want[googleName(b.RunName, "")], b.RealTime*1e-9)
		}
	}
	if len(want) != 4 || back.Cores() != 2 {
		t.Fatalf("%d run names, cores %d; want 4 and 2", len(want), back.Cores())
	}
	for name, times := range want {
		c, ok := back.Cell(name)
		if !ok || c.Threads == 0 || len(c.Values["sec/op"]) != len(times) {
			t.Fatalf("%s: cell %v (threads %d), want %d repetitions", name, ok, c.Threads, len(times))
		}
		for i, v := range c.Values["sec/op"] {
			if math.Abs(v-times[i]) > 1e-15 {
				t.Errorf("%s repetition %d: %g s, the file says %g", name, i, v, times[i])
			}
		}
	}
	if got := googleName("BM_X/64/8/threads:2", ""); got != "BM_X/arg=64/arg2=8/threads=2" {
		t.Errorf("googleName = %q", got)
	}
}

// TestCallgrindRoundTrip: a callgrind 3.19 file of `ls /` made here reads
// as one run of the command with its Ir total as instructions/op; two
// files concatenated are two runs; other text is refused.
func TestCallgrindRoundTrip(t *testing.T) {
	data := testdata(t, "callgrind.out.ls-3.19.txt.bz2")
	back, text := roundTrip(t, "callgrind", append(append([]byte(nil), data...), data...), "cg")
	c, ok := back.Cell("ls__")
	if !ok || len(c.Values[records.Instructions]) != 2 || c.Values[records.Instructions][0] != 572696 {
		t.Fatalf("cell %v: %v\n%s", ok, c, text)
	}
	if _, err := readCallgrind(strings.NewReader("events: Ir\nsummary: 12\n"), "x"); !errors.Is(err, ErrFormat) {
		t.Errorf("text without the callgrind header: %v", err)
	}
}

// TestImportRefusesNonMeasurements: a zero, negative or non-finite time
// from a tool never reaches the results (a 0 was written into them): it
// is skipped and said, and a value no reader checked is refused whole.
func TestImportRefusesNonMeasurements(t *testing.T) {
	hf, _ := Lookup("hyperfine")
	for name, times := range map[string]string{
		"zero":     "[0, 0.001, 0.0011]",
		"negative": "[-0.001, 0.001, 0.0011]",
	} {
		text := `{"results": [{"command": "x", "mean": 0.001, "times": ` + times + `}]}`
		set, err := hf.Import(strings.NewReader(text), name)
		if err != nil || len(set.Records) != 2 || len(set.Warnings) != 1 {
			t.Errorf("%s: %v, %d records, warnings %v; want the 2 real times kept and the other said", name, err, len(set.Records), set.Warnings)
		}
	}
	bad := Importer{Name: "bad", Read: func(io.Reader, string) (*records.Set, error) {
		s := records.New("", "bad")
		s.Add(&benchfmt.Result{Name: benchfmt.Name("x"), Iters: 1, Values: []benchfmt.Value{records.Value(0, records.NsPerOp)}})
		return s, nil
	}}
	if _, err := bad.Import(strings.NewReader(""), "bad"); !errors.Is(err, ErrFormat) {
		t.Errorf("a zero time from a reader: %v, want refused", err)
	}
	ok := `{"results": [{"command": "x", "mean": 0.001, "times": [0.001, 0.0011, 0.0012]}]}`
	if _, err := hf.Import(strings.NewReader(ok), "ok"); err != nil {
		t.Errorf("real times refused: %v", err)
	}
}

// TestCallgrindEventTwice: an events line that names an event twice gave
// one unit two values a record, mixed into one sample (a +41% change from
// nothing); it is refused.
func TestCallgrindEventTwice(t *testing.T) {
	text := "# callgrind format\nversion: 1\ncmd: ./x\nevents: Ir Ir\nsummary: 100 141\n"
	if _, err := readCallgrind(strings.NewReader(text), "twice"); !errors.Is(err, ErrFormat) {
		t.Errorf("an event named twice: %v, want ErrFormat", err)
	}
}

// TestImportedNamesAreData: two hyperfine commands of one name stay two
// cells (they merged into one), and a name's NUL, ESC and U+202E reach
// the results file escaped, not raw.
func TestImportedNamesAreData(t *testing.T) {
	data := []byte(`{"results": [
		{"command": "sleep 0.1", "mean": 0.1, "times": [0.1, 0.11]},
		{"command": "sleep 0.1", "mean": 0.3, "times": [0.3, 0.31]},
		{"command": "evil\u0000\u001b[2J\u202eexe", "mean": 0.2, "times": [0.2]}]}`)
	back, text := roundTrip(t, "hyperfine", data, "h.json")
	if n := len(back.Cells()); n != 3 {
		t.Errorf("%d cells, want 3 (two of one name kept apart):\n%s", n, text)
	}
	for _, raw := range []string{"\x00", "\x1b", "\u202e"} {
		if strings.Contains(text, raw) {
			t.Errorf("the results file holds %q raw:\n%q", raw, text)
		}
	}
	if !strings.Contains(text, `\u202e`) || !strings.Contains(text, `\x1b`) {
		t.Errorf("the escapes are missing:\n%s", text)
	}
}
