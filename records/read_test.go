package records

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

func TestReadErrors(t *testing.T) {
	for name, text := range map[string]string{
		"empty":   "",
		"foreign": "hello world\nthis is not a results file\n",
		"config":  "goos: linux\n",
	} {
		if _, err := Read(strings.NewReader(text), name+".txt", name); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	s, err := Read(strings.NewReader("goos: linux\ncores: 2\nBenchmarkA/threads=1 1 100 ns/op\nBenchmarkA/threads=1 1 10"), "t.txt", "t")
	if err != nil || len(s.Warnings) != 1 || s.Cores() != 2 {
		t.Fatalf("truncated file: %v, %d warnings, cores %d", err, len(s.Warnings), s.Cores())
	}
	if c, ok := s.Cell("A/threads=1"); !ok || len(c.Values["sec/op"]) != 1 || c.Threads != 1 {
		t.Fatalf("cell %+v", c)
	}
	if !strings.Contains(s.Warnings[0].Error(), "t.txt:4") {
		t.Errorf("warning %q does not name the line", s.Warnings[0])
	}
}

// TestReadSkipsNonFinite: benchmath never returns on NaN, so such values
// are skipped with a warning (found by FuzzGate).
func TestReadSkipsNonFinite(t *testing.T) {
	s, err := Read(strings.NewReader("BenchmarkA 1 NaN ns/op 2 B/op\nBenchmarkA 1 +Inf ns/op\nBenchmarkA 1 5 ns/op\n"), "n.txt", "n")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Cell("A")
	if v := c.Values["sec/op"]; len(v) != 1 || v[0] != 5e-9 || len(s.Warnings) != 2 {
		t.Fatalf("sec/op %v, warnings %v", v, s.Warnings)
	}
}

// TestIndex: impl, threads and group come from benchproc projections;
// units are tidied, so a file in sec/op reads as the same unit as ns/op.
func TestIndex(t *testing.T) {
	s, err := Read(strings.NewReader(`cores: 2
BenchmarkIssuer/impl=rcu/certs=1024/hit=1/threads=2 1 100 ns/op 7 ops/s
BenchmarkLoad/impl=sorted/n=128/threads=1 1 0.5e-6 sec/op
`), "x.txt", "x")
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 2 {
		t.Fatalf("%d cells", len(cells))
	}
	c := cells[0]
	if c.Impl != "rcu" || c.Threads != 2 || c.Group != "Issuer/certs=1024/hit=1" {
		t.Errorf("cell %q: impl %q threads %d group %q", c.Name, c.Impl, c.Threads, c.Group)
	}
	if v := cells[1].Values["sec/op"]; len(v) != 1 || v[0] != 0.5e-6 {
		t.Errorf("sec/op read as %v", v)
	}
	if got := KeyOf("n")(cells[1]); got != "128" {
		t.Errorf("n = %q", got)
	}
	if got := GroupWithout("impl", "n")(cells[1]); got != "Load/threads=1" {
		t.Errorf("group without impl and n: %q", got)
	}
}

// TestRoundTrip: a set written and read back writes the same bytes, unit
// metadata included.
func TestRoundTrip(t *testing.T) {
	in := "Unit instructions/op assume=exact\nUnit ops/s better=higher\n\ncores: 2\ngo: go1.26\n\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 100.0 ns/op 1.0e+07 ops/s 812.0 instructions/op\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 101.0 ns/op 9.9e+06 ops/s 812.0 instructions/op\n"
	s, err := Read(strings.NewReader(in), "in.txt", "in")
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := s.Write(&first); err != nil {
		t.Fatal(err)
	}
	again, err := Read(bytes.NewReader(first.Bytes()), "again.txt", "again")
	if err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	again.Write(&second)
	if first.String() != second.String() {
		t.Fatalf("round trip changed the file:\n%s\n---\n%s", first.String(), second.String())
	}
	if !strings.Contains(first.String(), "Unit instructions/op assume=exact") {
		t.Errorf("unit metadata lost:\n%s", first.String())
	}
	if again.Assumption("instructions/op") != benchmath.AssumeExact || again.Assumption("sec/op") != benchmath.AssumeNothing {
		t.Error("instructions/op should read as exact, sec/op as not")
	}
}

// TestReadSetsQuarantinedAside: records under a quarantined: line are
// counted per cell and kept out of its values; the control cells give the
// machine's parallelism. The kept records read the same with no key (older
// files) and under "quarantined: no" (every file perfrun writes now).
func TestReadSetsQuarantinedAside(t *testing.T) {
	t.Run("no key", func(t *testing.T) { readQuarantined(t, "") })
	t.Run("quarantined: no", func(t *testing.T) { readQuarantined(t, "quarantined: no\n") })
}

func readQuarantined(t *testing.T, kept string) {
	text := kept + `cores: 2
BenchmarkIssuer/impl=rcu/threads=2 1 100 ns/op 2e7 ops/s
BenchmarkControl/threads=1 1 40 ns/op 2.5e7 ops/s
BenchmarkControl/threads=2 1 21 ns/op 4.8e7 ops/s
BenchmarkControl/threads=2 1 20 ns/op 5e7 ops/s
quarantined: a worker waited for a CPU 50% of the window
BenchmarkIssuer/impl=rcu/threads=2 1 180 ns/op 1.1e7 ops/s
BenchmarkControl/threads=2 1 33 ns/op 3e7 ops/s
`
	s, err := Read(strings.NewReader(text), "q.txt", "q")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Cell("Issuer/impl=rcu/threads=2")
	if v := c.Values["sec/op"]; len(v) != 1 || c.Aside != 1 || !strings.Contains(c.Why, "50%") {
		t.Fatalf("values %v, aside %d (%q): want the quarantined record set aside", v, c.Aside, c.Why)
	}
	ctl, _ := s.Cell("Control/threads=2")
	if !ctl.IsControl() || c.IsControl() {
		t.Fatal("IsControl")
	}
	if p := s.Parallelism(); len(p) != 2 || p[1] != 1 || p[2] < 1.95 || p[2] > 1.97 {
		t.Fatalf("parallelism %v, want p(2) = 4.9e7/2.5e7 from the two kept records", p)
	}
}

// TestReadFileKeepsCellsNotLines: a file of many lines of few cells is
// read into per-cell values, not a record per line (a 10^6-line file took
// 1.8 GB to gate; now 87 MB).
func TestReadFileKeepsCellsNotLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("cores: 2\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "BenchmarkA/impl=x/threads=%d 1 %d ns/op\n", 1+i%2, 100+i%7)
	}
	path := filepath.Join(t.TempDir(), "many.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 0 || len(s.Cells()) != 2 || s.Cores() != 2 {
		t.Fatalf("%d records kept, %d cells, cores %d: want no records, 2 cells", len(s.Records), len(s.Cells()), s.Cores())
	}
	for _, c := range s.Cells() {
		if n := len(c.Values["sec/op"]); n != 10000 {
			t.Errorf("%s: %d values, want 10000", c.Name, n)
		}
	}
}

// TestReadFileIsBounded: a results file read from a path stops at
// MaxFileBytes with an error (an endless stream was read for 1.35 GB).
func TestReadFileIsBounded(t *testing.T) {
	b := &bounded{r: zeros{}, left: 1 << 20, name: "/dev/zero"}
	n, err := io.Copy(io.Discard, b)
	if !errors.Is(err, ErrTooLarge) || n > 1<<20+1 {
		t.Errorf("read %d bytes, err %v; want ErrTooLarge after 1 MiB", n, err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
