package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestNothingMeasuredIsNoSuccess: every reader of a file whose samples
// were all set aside says so and exits 3; it exited 0 with a header, a
// null row list, a zero JMH score, or nothing.
func TestNothingMeasuredIsNoSuccess(t *testing.T) {
	dir := t.TempDir()
	aside := filepath.Join(dir, "aside.txt")
	text := "cores: 2\nquarantined: the hypervisor stole more than 5% of the CPU time\n" +
		"BenchmarkIssuer/impl=rcu/certs=64/hit=1/threads=1 1 90 ns/op\n" +
		"BenchmarkIssuer/impl=rcu/certs=64/hit=1/threads=2 1 100 ns/op\n"
	if err := os.WriteFile(aside, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", "-format", "csv", aside},
		{"export", "-format", "json", aside},
		{"export", "-format", "jmh", aside},
		{"export", "-format", "table", aside},
		{"compare", aside, aside},
		{"plot", "-o", dir, aside},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&stdout, &stderr, args)
		if code != subcommand.ExitInconclusive || !strings.Contains(stderr.String(), "nothing measured") {
			t.Errorf("perfrun %s: exit %d, want 3 saying nothing was measured:\n%s%s", strings.Join(args, " "), code, &stdout, &stderr)
		}
	}
}

// TestProcessesCountAFileOnce: export -format processes counts a file
// given twice, or a copy of it, as one process, and refuses files of
// other machines or corpora, as gate does.
func TestProcessesCountAFileOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := "cpu: Some CPU @ 2.0GHz  \ncores: 2\ncorpus: generated seed=1 cas=64 hits=64 misses=0\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 90 ns/call\nBenchmarkIssuer/impl=rcu/threads=1 1 92 ns/call\n"
	a := write("a.txt", one)
	b := write("b.txt", one)
	c := write("c.txt", strings.Replace(one, "90 ns", "100 ns", 1))
	var stdout, stderr bytes.Buffer
	if code := run(&stdout, &stderr, []string{"export", "-format", "processes", a, a, b, c}); code != subcommand.ExitOK {
		t.Fatalf("exit %d:\n%s", code, &stderr)
	}
	if n := strings.Count(stderr.String(), "counted once"); n != 2 {
		t.Errorf("%d files said to be counted once, want 2 (a again, b):\n%s", n, &stderr)
	}
	other := write("other.txt", strings.Replace(one, "seed=1", "seed=2", 1))
	stripped := write("stripped.txt", strings.Replace(strings.Replace(one, "2.0GHz  ", "2.0GHz", 1), "90 ns", "95 ns", 1))
	stdout.Reset()
	stderr.Reset()
	if code := run(&stdout, &stderr, []string{"export", "-format", "processes", a, other}); code != subcommand.ExitUsage || !strings.Contains(stderr.String(), "corpus") {
		t.Errorf("two corpora: exit %d, want 2 naming the corpus:\n%s", code, &stderr)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(&stdout, &stderr, []string{"export", "-format", "processes", "-ignore-config", "corpus", a, other}); code != subcommand.ExitOK {
		t.Errorf("two corpora with -ignore-config corpus, as the refusal suggests: exit %d:\n%s", code, &stderr)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(&stdout, &stderr, []string{"export", "-format", "processes", a, stripped}); code != subcommand.ExitOK {
		t.Errorf("a cpu: line without its trailing spaces is another machine: exit %d:\n%s", code, &stderr)
	}
}

// TestMessagesAsPromised: usage mistakes are exit 2 with a message that
// names the mistake, found before any work.
func TestMessagesAsPromised(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-label", "machine=a", "-label", "machine=b", "-o", filepath.Join(dir, "r.txt")}, "given twice"},
		{[]string{"gate", "-threshold", "1e-9", "a.txt", "b.txt"}, "below 0.01%"},
		{[]string{"gate", "-threshold", "2000%", "a.txt", "b.txt"}, "below 1000%"},
		{[]string{"history", "add", "-machine", "m1\n::warning::forged", "-db", filepath.Join(dir, "h.db"), "x.txt"}, "history: add: bad -machine"},
		{[]string{"history", "backfill", "-db", filepath.Join(dir, "h.db"), "HEAD~1..HEAD", "stray"}, "unexpected argument"},
	} {
		code, out, errs := perfrun(tc.args...)
		if code != subcommand.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("perfrun %q: exit %d, want 2 saying %q\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
	if _, _, errs := perfrun("run", "-seed", "-1"); strings.Contains(errs, "did you mean -o") {
		t.Errorf("run -seed -1 suggests -o:\n%s", errs)
	}
	// After --, an argument that begins with "-" is an argument.
	if code, _, errs := perfrun("bisect", "-repo", dir, "--", "-x", "HEAD"); code != subcommand.ExitUsage || strings.Contains(errs, "flag provided but not defined") {
		t.Errorf("bisect -- -x HEAD: exit %d, read -x as a flag:\n%s", code, errs)
	}
}

// TestEmptyNamesAreNamed: an empty path given where a file or a history is
// wanted is refused as such (exit 2); its message printed nothing where
// the name goes ("open : no such file", "no history at : add results").
func TestEmptyNamesAreNamed(t *testing.T) {
	for _, args := range [][]string{
		{"history", "info", "-db", ""},
		{"history", "changes", "-db", ""},
		{"export", "-format", "csv", ""},
		{"report", ""},
		{"gate", "", ""},
		{"predict", ""},
	} {
		code, out, errs := perfrun(args...)
		if code != subcommand.ExitUsage || !strings.Contains(errs, "empty") || strings.Contains(errs, " : ") {
			t.Errorf("perfrun %q: exit %d, want 2 naming the empty name\n%s%s", args, code, out, errs)
		}
	}
}
