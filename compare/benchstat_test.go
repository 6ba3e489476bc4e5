package compare

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestAgreesWithBenchstat runs unmodified benchstat on two files and checks
// that Compare reports the same centers, p-values and significance.
func TestAgreesWithBenchstat(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to run benchstat with")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	write := func(name string, shift map[int]float64) string {
		var b strings.Builder
		b.WriteString("goos: linux\ncores: 2\n")
		for round := range 8 {
			for cell := range 6 {
				v := 100 * float64(cell+1) * shift[cell] * (1 + 0.05*(r.Float64()*2-1))
				fmt.Fprintf(&b, "BenchmarkIssuer/impl=x%d/threads=1 1 %g ns/op\n", cell, v)
			}
			_ = round
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	same := map[int]float64{0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
	changed := map[int]float64{0: 1, 1: 1.3, 2: 0.7, 3: 1, 4: 1.02, 5: 1}
	oldPath, newPath := write("old.txt", same), write("new.txt", changed)

	want, out := benchstatCSV(t, oldPath, newPath)
	old, err := records.ReadFile(oldPath)
	if err != nil {
		t.Fatal(err)
	}
	new, err := records.ReadFile(newPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range got {
		w, ok := want[row.Name]
		if row.Unit != "sec/op" || !ok {
			continue
		}
		checked++
		// Both read sec/op, tidied from ns/op by benchfmt's reader.
		if math.Abs(row.Old.Center/w.old-1) > 1e-9 || math.Abs(row.New.Center/w.new-1) > 1e-9 {
			t.Errorf("%s: centers %g, %g; benchstat %g, %g", row.Name, row.Old.Center, row.New.Center, w.old, w.new)
		}
		if p := row.Cmp.String(); p != w.p {
			t.Errorf("%s: %q, benchstat %q", row.Name, p, w.p)
		}
		if row.Significant != (w.delta != "~") {
			t.Errorf("%s: significant %v, benchstat says %q", row.Name, row.Significant, w.delta)
		}
		if row.Significant && w.delta != fmt.Sprintf("%+.2f%%", 100*row.Delta) {
			t.Errorf("%s: delta %+.2f%%, benchstat %s", row.Name, 100*row.Delta, w.delta)
		}
	}
	if checked != 6 {
		t.Fatalf("compared %d rows with benchstat, want 6:\n%s", checked, out)
	}
}

// A benchstatRow is one row of benchstat's CSV: the centers, the delta
// ("~" where not significant) and the p-value's text.
type benchstatRow struct {
	old, new float64
	delta, p string
}

// benchstatCSV runs unmodified benchstat on two files and reads its CSV
// rows by name; the test skips where benchstat cannot run.
func benchstatCSV(t *testing.T, oldPath, newPath string) (map[string]benchstatRow, []byte) {
	t.Helper()
	cmd := exec.Command("go", "run", "golang.org/x/perf/cmd/benchstat", "-format", "csv", oldPath, newPath)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("benchstat not runnable here: %v", err)
	}
	want := make(map[string]benchstatRow)
	cr := csv.NewReader(strings.NewReader(string(out)))
	cr.FieldsPerRecord = -1 // benchstat mixes config lines and tables
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("benchstat CSV: %v\n%s", err, out)
	}
	for _, row := range rows {
		if len(row) == 7 && strings.HasPrefix(row[0], "Issuer/") {
			o, _ := strconv.ParseFloat(row[1], 64)
			n, _ := strconv.ParseFloat(row[3], 64)
			want[row[0]] = benchstatRow{o, n, row[5], row[6]}
		}
	}
	return want, out
}
