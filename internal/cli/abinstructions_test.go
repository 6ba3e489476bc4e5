package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
)

// TestABInstructions is the case ab's instruction verdict exists for: a
// head whose hashmap does every lookup's work twice for the leaves whose
// fingerprint starts below 26 (built from this tree with a go build
// overlay) is an instruction REGRESSION at 1 thread; the same binary
// against itself is a PASS.
func TestABInstructions(t *testing.T) {
	needs.Valgrind(t)
	if testing.Short() {
		t.Skip("slow: builds twice and runs callgrind")
	}
	t.Parallel()
	dir := t.TempDir()
	var base, head string
	src, err := os.ReadFile("../../impls/hashmap/hashmap.go")
	if err != nil {
		t.Fatal(err)
	}
	const lookup = "func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {\n"
	if !strings.Contains(string(src), lookup) {
		t.Fatal("hashmap.go has no Issuer method to patch")
	}
	patched := strings.Replace(string(src), lookup, lookup+"\tif cert.Fingerprint[0] < 26 {\n\t\ts.issuer(cert, at)\n\t}\n\treturn s.issuer(cert, at)\n}\n\nfunc (s *Store) issuer(cert *store.Object, at time.Time) (*store.Object, bool) {\n", 1)
	abs, _ := filepath.Abs("../../impls/hashmap/hashmap.go")
	overlay := filepath.Join(dir, "overlay.json")
	os.WriteFile(filepath.Join(dir, "hashmap.go"), []byte(patched), 0o644)
	data, _ := json.Marshal(map[string]any{"Replace": map[string]string{abs: filepath.Join(dir, "hashmap.go")}})
	os.WriteFile(overlay, data, 0o644)
	base, head = builtPerfrun(t), builtPerfrun(t, "-overlay", overlay)
	var rep compare.Report
	verdict := func(headBin string, flags ...string) compare.CellVerdict {
		t.Helper()
		out := filepath.Join(dir, "v.json")
		code, stdout, stderr := perfrun(append([]string{"ab", "-base-bin", base, "-head-bin", headBin, "-rounds", "5", "-looks", "1", "-inner", "1",
			"-window", "20ms", "-warmup", "5ms", "-impl", "hashmap", "-threads", "1", "-param", "certs=64", "-q", "-json", out}, flags...)...)
		if code == subcommand.ExitFailure || code == subcommand.ExitUsage {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		rep = compare.Report{}
		data, err := os.ReadFile(out)
		if err != nil || json.Unmarshal(data, &rep) != nil {
			t.Fatalf("no verdict file: %v\n%s", err, stderr)
		}
		for _, c := range rep.Cells {
			if c.Unit == records.Instructions {
				return c
			}
		}
		t.Fatalf("no instruction verdict:\n%s", stdout)
		return compare.CellVerdict{}
	}
	if c := verdict(head); c.Verdict != compare.Regression || c.Ratio < 1.05 {
		t.Errorf("double work: %s %.4f (%s), want an instruction REGRESSION", c.Verdict, c.Ratio, c.Reason)
	}
	// -time off, as -time auto on a busy machine: one round names the
	// cell, and the count decides alone.
	if c := verdict(head, "-time", "off"); c.Verdict != compare.Regression || rep.Verdict != compare.Regression || rep.Untimed != "-time off" ||
		len(rep.Decided) != 1 || rep.Decided[0].By != compare.ByCounted || rep.Decided[0].Time != compare.TimeNoWindow {
		t.Errorf("-time off: %s by %s, untimed %q, decided %+v: want a REGRESSION by the count, time not measured", rep.Verdict, c.Verdict, rep.Untimed, rep.Decided)
	}
	// Under two CPU hogs the same binary's counts differed by a tenth of a
	// percent; how exact they are is measured alone (results/archive/campaigns/fresh).
	if c := verdict(base); c.Verdict != compare.Pass || c.Ratio < 0.995 || c.Ratio > 1.005 {
		t.Errorf("the same binary: %s %.4f (%s), want PASS within ±0.5%%", c.Verdict, c.Ratio, c.Reason)
	}
}
