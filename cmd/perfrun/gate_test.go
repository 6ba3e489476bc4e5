package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resultsFile writes a results file whose cells have the given ns/op centers,
// each over n rounds with a little spread.
func resultsFile(t *testing.T, dir, name string, n int, centers map[string]float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ncores: 2\n")
	for r := range n {
		for cell, c := range centers {
			fmt.Fprintf(&b, "Benchmark%s 1 %g ns/op 0 allocs/op\n", cell, c*(1+0.01*float64(r%3)))
		}
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGateExitCodes(t *testing.T) {
	dir := t.TempDir()
	base := map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=b/threads=1": 200}
	old := resultsFile(t, dir, "old.txt", 8, base)
	same := resultsFile(t, dir, "same.txt", 8, base)
	slow := resultsFile(t, dir, "slow.txt", 8, map[string]float64{"Issuer/impl=a/threads=1": 130, "Issuer/impl=b/threads=1": 200})
	fast := resultsFile(t, dir, "fast.txt", 8, map[string]float64{"Issuer/impl=a/threads=1": 70, "Issuer/impl=b/threads=1": 200})
	few := resultsFile(t, dir, "few.txt", 2, base)
	other := resultsFile(t, dir, "other.txt", 8, map[string]float64{"Load/impl=a/threads=1": 1})
	foreign := filepath.Join(dir, "foreign.txt")
	os.WriteFile(foreign, []byte("<html>not results</html>\n"), 0o644)
	verdict := filepath.Join(dir, "verdict.json")

	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"gate", old, same}, 0, "verdict: PASS"},
		{[]string{"gate", old, fast}, 0, "verdict: IMPROVED"},
		{[]string{"gate", old, slow, "-json", verdict}, 1, "verdict: REGRESSION"},
		{[]string{"gate", few, few}, 3, "verdict: INCONCLUSIVE"},
		{[]string{"gate", old, other}, 2, "share no benchmark"},
		{[]string{"gate", old, foreign}, 2, "no benchmark results"},
		{[]string{"gate", old, filepath.Join(dir, "missing.txt")}, 2, "no such file"},
		{[]string{"gate", old}, 2, "want two results files"},
		{[]string{"gate", "-threshold", "-1", old, same}, 2, "-threshold must be"},
		{[]string{"compare", "before=" + old, "after=" + slow}, 0, "+30.00%"},
		{[]string{"compare", old, slow}, 0, "a ran 2.00 ± 0.0"},
		{[]string{"ab", "HEAD"}, 2, "want two revisions"},
		{[]string{"ab", "-rounds", "2", "HEAD", "HEAD"}, 2, "-rounds must be at least 3"},
	} {
		code, stdout, stderr := perfrun(tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.out) {
			t.Errorf("perfrun %v: exit %d, want %d with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.code, tc.out, stdout, stderr)
		}
	}
	var v struct {
		Verdict string `json:"verdict"`
		Cells   []struct{ Name, Verdict string }
	}
	data, err := os.ReadFile(verdict)
	if err != nil || json.Unmarshal(data, &v) != nil || v.Verdict != "REGRESSION" || len(v.Cells) == 0 {
		t.Fatalf("verdict file: %v %s", err, data)
	}
}
