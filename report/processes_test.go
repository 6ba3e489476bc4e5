package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// process is one results file of a process: every cell's rounds, ns/call
// and the ops/s they imply.
func process(t *testing.T, name string, cells map[string][]float64) *records.Set {
	t.Helper()
	var b strings.Builder
	b.WriteString("cores: 2\n")
	for _, cell := range []string{"Issuer/impl=a/threads=1", "Issuer/impl=a/threads=2", "Issuer/impl=b/threads=1", "Issuer/impl=b/threads=2"} {
		threads := 1.0
		if strings.HasSuffix(cell, "=2") {
			threads = 2
		}
		for _, ns := range cells[cell] {
			fmt.Fprintf(&b, "Benchmark%s 1 %g ns/call %g ops/s\n", cell, ns, threads*1e9/ns)
		}
	}
	s, err := records.Read(strings.NewReader(b.String()), name, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProcesses: a cell's value is each process's median, the median
// over processes beside every process's value; scaling and the ratio to
// -vs are taken within a process, before the median; a process without a
// cell shows — and the others decide.
func TestProcesses(t *testing.T) {
	sets := []*records.Set{
		process(t, "p1", map[string][]float64{
			"Issuer/impl=a/threads=1": {100, 101, 99}, "Issuer/impl=a/threads=2": {125, 125, 125},
			"Issuer/impl=b/threads=1": {200, 200, 200}, "Issuer/impl=b/threads=2": {200, 200, 200}}),
		process(t, "p2", map[string][]float64{
			"Issuer/impl=a/threads=1": {109, 110, 111}, "Issuer/impl=a/threads=2": {110, 110, 110},
			"Issuer/impl=b/threads=1": {220, 220, 220}, "Issuer/impl=b/threads=2": {220, 220, 220}}),
		process(t, "p3", map[string][]float64{ // a slow process, and a cell it lacks
			"Issuer/impl=a/threads=1": {148, 150, 152}, "Issuer/impl=a/threads=2": {300, 300, 300},
			"Issuer/impl=b/threads=1": {300, 300, 300}}),
	}
	var b strings.Builder
	if err := WriteProcesses(&b, sets, ProcessOptions{Units: []string{"ns/call"}, Vs: "b"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"3 processes, one a file",
		// the rounds' sd: 1.0%, 0.9% and 1.3% in the three processes
		"Issuer/impl=a/threads=1  ns/call  110.0   [100.0 110.0 150.0]  1.0%",
		"Issuer/impl=b/threads=2  ns/call  210.0   [200.0 220.0 —]",
		// a at 2 threads over 1: 2×100/125 = 1.6, 2×110/110 = 2, 2×150/300 = 1
		"Issuer a  2        1.600   [1.600 2.000 1.000]",
		// b has no 2-thread cell in the third process: its scaling there is —
		"Issuer b  2        2.000   [2.000 2.000 —]",
		// a over b, process by process: 0.5 in each at one thread
		"Issuer/impl=a/threads=1  ns/call  0.500   [0.500 0.500 0.500]",
		"Issuer/impl=a/threads=2  ns/call  0.562   [0.625 0.500 —]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Issuer/impl=b/threads=1  ns/call  1.000") {
		t.Errorf("b divided by itself:\n%s", out)
	}
	if err := WriteProcesses(&b, sets, ProcessOptions{Vs: "c"}); err == nil || !strings.Contains(err.Error(), "-vs c") {
		t.Errorf("-vs of an implementation no file has: %v, want it named", err)
	}
	var none strings.Builder
	if err := WriteProcesses(&none, sets, ProcessOptions{Units: []string{"B/object"}}); err == nil || none.Len() > 0 {
		t.Errorf("a unit no file has: error %v after writing %q, want an error and nothing written", err, none.String())
	}
}
