package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// historyFiles writes n results files of one machine, one commit each,
// a day apart: rcu's ns/op steps up by step at commit at, in ±3% noise.
func historyFiles(t *testing.T, dir string, n, at int, step float64) []string {
	return historyFilesOf(t, dir, "Issuer/impl=rcu/threads=1", n, at, step)
}

func historyFilesOf(t *testing.T, dir, cell string, n, at int, step float64) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	var files []string
	for i := 0; i < n; i++ {
		level := 100.0
		if i >= at {
			level *= 1 + step
		}
		var b strings.Builder
		fmt.Fprintf(&b, "cpu: Test CPU\ncores: 2\nperfrun: %03d%s\ndate: 2026-01-01T00:00:00Z\nmachine: test-box\n\n", i+1, strings.Repeat("a", 37))
		for r := 0; r < 3; r++ {
			fmt.Fprintf(&b, "Benchmark%s 1 %g ns/op 0 allocs/op\n", cell, level*(1+0.03*(2*rng.Float64()-1)))
		}
		// The date: line is the same for all: the order comes from
		// -commit-time in the test, as git would give it.
		path := filepath.Join(dir, fmt.Sprintf("r%03d.txt", i))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	return files
}

// TestHistoryCommands runs the history commands as CI would: add (again a
// no-op), changes failing on a new regression step, passing once it is
// recorded, plot and report writing their files, and the errors a user
// meets.
func TestHistoryCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	files := historyFiles(t, dir, 40, 25, 0.10)
	for i, f := range files {
		day := fmt.Sprintf("2026-01-%02dT%02d:00:00Z", 1+i/24, i%24)
		if code, out, errs := perfrun("history", "add", "-db", db, "-commit-time", day, f); code != 0 {
			t.Fatalf("add %s: exit %d\n%s%s", f, code, out, errs)
		}
	}
	code, out, _ := perfrun("history", "add", "-db", db, files[3])
	if code != 0 || !strings.Contains(out, "already in the history (same bytes); nothing added") {
		t.Errorf("adding a file again: exit %d\n%s", code, out)
	}
	code, out, _ = perfrun("history", "info", "-db", db)
	if code != 0 || !strings.Contains(out, "40 files, 40 runs, 40 commits, 2 series, 240 values") || !regexp.MustCompile(`(?m)^test-box +2 +40 `).MatchString(out) {
		t.Errorf("info: exit %d\n%s", code, out)
	}

	// The step is new and a regression: -fail exits 1, and names it.
	code, out, errs := perfrun("history", "changes", "-db", db, "-fail", "-record")
	step := "025aaaaaaaaa..026aaaaaaaaa"
	if code != subcommand.ExitRegression || !strings.Contains(out, "NEW") || !strings.Contains(out, step) || !strings.Contains(out, "regression") {
		t.Fatalf("changes -fail on a new regression: exit %d, want %d, and the step %s\n%s%s", code, subcommand.ExitRegression, step, out, errs)
	}
	// Recorded, it is no longer new: the same check passes.
	code, out, errs = perfrun("history", "changes", "-db", db, "-fail")
	if code != 0 || strings.Contains(out, "NEW") || !strings.Contains(out, "1 steps in 2 series") {
		t.Errorf("changes -fail once recorded: exit %d\n%s%s", code, out, errs)
	}

	plots := filepath.Join(dir, "plots")
	if code, out, errs := perfrun("history", "plot", "-db", db, "-o", plots); code != 0 || !strings.Contains(out, "1 steps marked") {
		t.Errorf("plot: exit %d\n%s%s", code, out, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(plots, "*.png")); len(m) != 1 {
		t.Errorf("plot wrote %v, want one PNG (one ns/op series)", m)
	}
	rep := filepath.Join(dir, "rep")
	if code, out, errs := perfrun("history", "report", "-db", db, "-o", rep); code != 0 {
		t.Errorf("report: exit %d\n%s%s", code, out, errs)
	}
	md, _ := os.ReadFile(filepath.Join(rep, "report.md"))
	html, _ := os.ReadFile(filepath.Join(rep, "report.html"))
	if !strings.Contains(string(md), "| regression | Issuer/impl=rcu/threads=1 | sec/op | test-box | "+step+" |") ||
		!strings.Contains(string(html), "<svg") || !strings.Contains(string(md), "![") {
		t.Errorf("report.md:\n%s", md)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"history"}, subcommand.ExitUsage, "want a history command"},
		{[]string{"history", "frob"}, subcommand.ExitUsage, `unknown history command "frob"`},
		{[]string{"history", "add", "-db", db}, subcommand.ExitUsage, "want results files"},
		{[]string{"history", "add", "-db", db, filepath.Join(dir, "missing.txt")}, subcommand.ExitUsage, "no such file"},
		{[]string{"history", "add", "-db", db, "-commit-time", "yesterday", files[0]}, subcommand.ExitUsage, "bad -commit-time"},
		{[]string{"history", "add", "-db", db, filepath.Join(dir, "h.db")}, subcommand.ExitUsage, "no benchmark results (nothing of"},
		{[]string{"history", "changes", "-db", filepath.Join(dir, "none.db")}, subcommand.ExitUsage, "no history at"},
		{[]string{"history", "changes", "-db", db, "-cell", "nothing-like-this"}, subcommand.ExitUsage, "no series of the 2"},
		{[]string{"history", "changes", "-db", db, "-alpha", "0.001"}, subcommand.ExitUsage, "-permutations 199 cannot show p ≤ 0.001"},
		{[]string{"history", "changes", "-db", db, "-cell", "("}, subcommand.ExitUsage, "bad -cell"},
	} {
		code, out, errs := perfrun(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("perfrun %s: exit %d, want %d with %q\n%s%s", strings.Join(tc.args, " "), code, tc.code, tc.msg, out, errs)
		}
	}
}

// TestHistoryAddGoTestOutput: plain go test -bench output needs -commit;
// without it the error says so and nothing is stored.
func TestHistoryAddGoTestOutput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	bench := filepath.Join(dir, "bench.txt")
	data := "goos: linux\npkg: example.com/store\ncpu: Test CPU\nBenchmarkLookup-2 1000 123 ns/op\nBenchmarkLookup-2 1000 125 ns/op\nPASS\n"
	if err := os.WriteFile(bench, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := perfrun("history", "add", "-db", db, bench)
	if code != subcommand.ExitUsage || !strings.Contains(errs, "say which with -commit") {
		t.Fatalf("go test output without -commit: exit %d\n%s", code, errs)
	}
	code, out, errs := perfrun("history", "add", "-db", db, "-commit", "abc1230000000000000000000000000000000000", "-commit-time", "2026-11-01", bench)
	if code != 0 || !strings.Contains(out, "2 values of 1 run(s), commit abc1230000") {
		t.Fatalf("go test output with -commit: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = perfrun("history", "info", "-db", db)
	if code != 0 || !strings.Contains(out, "1 files, 1 runs, 1 commits, 1 series, 2 values") || !regexp.MustCompile(`(?m)^Test CPU +1 +1 `).MatchString(out) {
		t.Errorf("info: %s", out)
	}
}

// addDaily adds files to the history db, one commit a day from 1 January.
func addDaily(t *testing.T, db string, files []string) {
	t.Helper()
	for i, f := range files {
		day := fmt.Sprintf("2026-01-%02dT00:00:00Z", 1+i)
		if code, out, errs := perfrun("history", "add", "-db", db, "-commit-time", day, f); code != 0 {
			t.Fatalf("add: exit %d\n%s%s", code, out, errs)
		}
	}
}

// TestHistoryOversubscribedNotGated: a regression step of a cell with more
// threads than the machine has cores is shown, and never fails the check.
func TestHistoryOversubscribedNotGated(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	addDaily(t, db, historyFilesOf(t, dir, "Issuer/impl=rcu/threads=4", 30, 15, 0.10))
	code, out, errs := perfrun("history", "changes", "-db", db, "-fail")
	if code != 0 || !strings.Contains(out, "regression") || !strings.Contains(out, "oversubscribed (more threads than cores): never gated") {
		t.Errorf("changes -fail on an oversubscribed regression: exit %d, want 0 with the step shown\n%s%s", code, out, errs)
	}
}

// TestHistoryCommandHelp: each history command's -h prints its own usage
// and flags (it printed history's once), and history's help lists them.
func TestHistoryCommandHelp(t *testing.T) {
	for _, c := range historycmd.Commands() {
		sub := strings.TrimPrefix(c.Name, "history ")
		code, out, errs := perfrun("history", sub, "-h")
		if code != subcommand.ExitOK || errs != "" || !strings.Contains(out, "usage: perfrun "+c.Name+" ") || (!strings.Contains(out, "-db") && c.Name != "history copy") {
			t.Errorf("history %s -h: exit %d, want its help on standard output\n%s%s", sub, code, out, errs)
		}
		if strings.Contains(out, "Commands:") {
			t.Errorf("history %s -h printed history's own help:\n%s", sub, out)
		}
	}
	code, out, _ := perfrun("help", "history")
	for _, c := range historycmd.Commands() {
		if sub := strings.TrimPrefix(c.Name, "history "); code != subcommand.ExitOK || !strings.Contains(out, "\n  "+sub+" ") {
			t.Errorf("help history does not list %s:\n%s", c.Name, out)
		}
	}
}

// TestHistoryMinShift: a step smaller than -min-shift is not reported; the
// same step is at the default (2%).
func TestHistoryMinShift(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	addDaily(t, db, historyFilesOf(t, dir, "Issuer/impl=rcu/threads=1", 30, 15, 0.10))
	if _, out, _ := perfrun("history", "changes", "-db", db); !strings.Contains(out, "1 steps in") {
		t.Errorf("a +10%% step at the default -min-shift:\n%s", out)
	}
	if _, out, _ := perfrun("history", "changes", "-db", db, "-min-shift", "15%"); !strings.Contains(out, "0 steps in") {
		t.Errorf("a +10%% step at -min-shift 15%%:\n%s", out)
	}
	if code, _, _ := perfrun("history", "changes", "-db", db, "-min-shift", "100%"); code != subcommand.ExitUsage {
		t.Errorf("-min-shift 100%%: exit %d, want usage", code)
	}
}

// TestHistoryNearestStep: a +10% step in 8 commits cannot pass the test at
// the default -alpha (a series needs 11 commits before even a step no
// noise hides does); changes and report say so, and show the step as the
// nearest to one, between the commits it is between, its series drawn.
func TestHistoryNearestStep(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	addDaily(t, db, historyFiles(t, dir, 8, 4, 0.10))
	code, out, errs := perfrun("history", "changes", "-db", db)
	for _, want := range []string{"0 steps in 2 series (0 long enough to show one at -alpha 0.01: 11 commits or more)",
		"nearest to one, not reported (the first's 8 commits split 4 | 4: there even a step no noise hides gets p ≈ 0.033 on average; 11 commits or more", "regression", "Issuer/impl=rcu/threads=1", "004aaaaaaaaa..005aaaaaaaaa"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("changes of a +10%% step in 8 commits: exit %d, want %q in\n%s%s", code, want, out, errs)
		}
	}
	if _, out, _ := perfrun("history", "changes", "-db", db, "-alpha", "0.05"); !strings.Contains(out, "1 steps in") || strings.Contains(out, "nearest") {
		t.Errorf("the same at -alpha 0.05: want the step found, no nearest\n%s", out)
	}
	rep := filepath.Join(dir, "rep")
	if code, _, errs := perfrun("history", "report", "-db", db, "-o", rep); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, errs)
	}
	for _, f := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(rep, f))
		if err != nil || !strings.Contains(string(b), "nearest to one, not reported") || !strings.Contains(string(b), "Issuer/impl=rcu/threads=1") ||
			!strings.Contains(string(b), "0 of 2 series are long enough to show one at -alpha 0.01 (11 commits or more)") ||
			f == "report.md" && !strings.Contains(string(b), "![Issuer/impl=rcu/threads=1 in sec/op") {
			t.Errorf("%s does not show the nearest step (%v):\n%s", f, err, b)
		}
	}
}
