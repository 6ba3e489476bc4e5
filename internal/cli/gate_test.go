package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/internal/subcommand"
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
	same := resultsFile(t, dir, "same.txt", 9, base) // a second run: one more round
	few2 := resultsFile(t, dir, "few2.txt", 2, map[string]float64{"Issuer/impl=a/threads=1": 100.1, "Issuer/impl=b/threads=1": 200.2})
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
		{[]string{"gate", few, few2}, 3, "verdict: INCONCLUSIVE"},
		{[]string{"gate", old, old}, 2, "hold one measurement"},
		{[]string{"gate", old, other}, 2, "share no benchmark"},
		{[]string{"gate", old, foreign}, 2, "no benchmark results"},
		{[]string{"gate", old, filepath.Join(dir, "missing.txt")}, 2, "no such file"},
		{[]string{"gate", old}, 2, "want two results files"},
		{[]string{"gate", "-threshold", "-1", old, same}, 2, "-threshold must be"},
		{[]string{"compare", "before=" + old, "after=" + slow}, 0, "+30.00%"},
		{[]string{"compare", old, slow}, 0, "a ran 2.00 ± 0.0"},
		{[]string{"ab", "HEAD"}, 2, "want two revisions"},
		{[]string{"ab", "-rounds", "4", "HEAD", "HEAD"}, 2, "paired statistics need at least 5"},
		{[]string{"ab", "-time", "sometimes", "HEAD", "HEAD"}, 2, "bad -time"},
		{[]string{"ab", "-time", "off", "-strict", "HEAD", "HEAD"}, 2, "-strict needs time"},
		{[]string{"ab", "-time", "off", "-instructions=false", "-locks=false", "HEAD", "HEAD"}, 2, "nothing would decide"},
		{[]string{"gate", old, same, "-json", dir}, 2, "is a directory"}, // a bad flag, found before the work
		{[]string{"gate", "-threshold", "NaN", old, slow}, 2, "not a finite number"},
		{[]string{"gate", "-allocs-delta", "NaN", old, slow}, 2, "-allocs-delta"},
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

// TestReportComparison: a comparison's report starts with the forest plot,
// keeps report.md short with the full tables beside it, draws old and new
// side by side, and a later report into the same folder leaves none of the
// earlier one's files behind.
func TestReportComparison(t *testing.T) {
	dir := t.TempDir()
	base := map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60, "Issuer/impl=b/threads=1": 200, "Issuer/impl=b/threads=2": 110}
	old := resultsFile(t, dir, "old.txt", 8, base)
	slow := map[string]float64{"Issuer/impl=a/threads=1": 130, "Issuer/impl=a/threads=2": 60, "Issuer/impl=b/threads=1": 200, "Issuer/impl=b/threads=2": 110}
	new := resultsFile(t, dir, "new.txt", 8, slow)
	out := filepath.Join(dir, "rep")
	if code, _, stderr := perfrun("report", "-o", out, old, new); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	first := strings.Index(string(md), "![")
	if first < 0 || !strings.Contains(string(md)[first:], "images/verdict-forest.png") || strings.Index(string(md), "images/verdict-forest.png") != strings.Index(string(md)[first:], "images/verdict-forest.png")+first {
		t.Fatalf("report.md does not show the forest plot first:\n%s", md)
	}
	if !strings.Contains(string(md), "REGRESSION") || !strings.Contains(string(md), "report-full.md") {
		t.Fatalf("report.md:\n%s", md)
	}
	for _, f := range []string{"report-full.md", "report.html", "images/verdict-forest.png", "images/issuer-latency.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(out, "images/issuer-latency.svg"))
	// Legends name the files by their base names, not their paths.
	short := func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".txt") }
	if !strings.Contains(string(svg), "a @ "+short(old)) || !strings.Contains(string(svg), "a @ "+short(new)) || strings.Contains(string(svg), old) {
		t.Errorf("latency plot does not draw old and new side by side under short names")
	}
	if code, _, stderr := perfrun("report", "-o", out, new); code != 0 {
		t.Fatalf("second report: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"report-full.md", "images/verdict-forest.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s of the earlier report is still there", f)
		}
	}
}

// TestVerdictSurvivesLostOutput: an output that cannot be written (a full
// report folder, a JSON path gone) loses itself, not the verdict: the
// verdict is printed, its exit code kept, and a PASS that lost an output
// is no success.
func TestVerdictSurvivesLostOutput(t *testing.T) {
	dir := t.TempDir()
	blocked := filepath.Join(dir, "file")
	os.WriteFile(blocked, nil, 0o644)
	for _, tc := range []struct {
		verdict compare.Verdict
		code    int
	}{{compare.Regression, subcommand.ExitRegression}, {compare.Pass, subcommand.ExitFailure}} {
		var stdout, stderr strings.Builder
		rep := &compare.Report{Verdict: tc.verdict, Old: "a", New: "b", Threshold: 0.05}
		err := finishGate(rep, filepath.Join(blocked, "v.json"), false, &subcommand.Streams{Stdout: &stdout, Stderr: &stderr})
		if !strings.Contains(stdout.String(), "verdict: "+string(tc.verdict)) {
			t.Errorf("%s: the verdict was not printed: %q", tc.verdict, stdout.String())
		}
		if got := program.ExitCode(cmdGate, err, &stderr); got != tc.code {
			t.Errorf("%s: exit %d, want %d (%v)", tc.verdict, got, tc.code, err)
		}
	}
}

// TestEveryVerdictHasItsExit: a gate fails (exit 1) on each verdict that
// says a declared count got worse — a TRADE among them — and passes only
// on PASS, IMPROVED and NOT-GATED.
func TestEveryVerdictHasItsExit(t *testing.T) {
	for v, want := range map[compare.Verdict]int{
		compare.Pass: subcommand.ExitOK, compare.Improved: subcommand.ExitOK, compare.NotGated: subcommand.ExitOK,
		compare.Regression: subcommand.ExitRegression, compare.Missing: subcommand.ExitRegression, compare.Trade: subcommand.ExitRegression,
		compare.Inconclusive: subcommand.ExitInconclusive,
	} {
		code := subcommand.ExitOK
		var e *subcommand.ExitError
		if err := verdictError(v); errors.As(err, &e) {
			code = e.Code
		} else if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if code != want {
			t.Errorf("%s exits %d, want %d", v, code, want)
		}
	}
}

// TestABsClosingLineSaysWhereTheTimeWent: the building share is in it, as
// measuring, linking and counting are; it was left out.
func TestABsClosingLineSaysWhereTheTimeWent(t *testing.T) {
	res := &campaign.Result{Report: &compare.Report{Verdict: compare.Pass}, Runner: &ab.Runner{Measuring: 60 * time.Second, Linking: 10 * time.Second},
		Building: 20 * time.Second, Counting: 10 * time.Second}
	if got, want := closingLine(res, 100*time.Second), "PASS in 1m40s (20% of it building, 60% measuring, 10% linking layouts, 10% counting"; !strings.Contains(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}
