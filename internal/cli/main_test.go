package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/subcommand"
)

func perfrun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(&out, &errb, args)
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PERFRUN_BASELINES", filepath.Join(dir, "baselines"))
	results := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(results, []byte("BenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "Usage"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"run", "-impl", "btree"}, `perfrun: run: unknown implementation "btree"`},
		{[]string{"run", "-workload", "nope"}, `perfrun: run: unknown workload "nope"`},
		{[]string{"run", "-param", "colour=red"}, `unknown parameter "colour"`},
		{[]string{"run", "-param", "hit=3"}, "parameter hit=\"3\""},
		{[]string{"run", "-threads", "0"}, "bad thread list"},
		{[]string{"run", "-rounds", "0"}, `"0" for flag -rounds: want a whole number from 1`},
		{[]string{"run", "-window", "-1s"}, `"-1s" for flag -window: want a duration from 1ms`},
		{[]string{"run", "-format", "xml"}, `unknown format "xml"`},
		{[]string{"run", "-o", filepath.Join(dir, "missing", "r.txt")}, "does not exist"},
		{[]string{"run", "extra"}, `unexpected argument "extra"`},
		{[]string{"corpus"}, "-o DIR is required"},
		{[]string{"run", "-label", "machine=x\nBenchmarkIssuer/impl=rcu/threads=1 1 99999 ns/op"}, "the value must be one line"},
		// The baseline store's refusals, however deep they are returned.
		{[]string{"run", "-save-baseline", "../evil", "-o", ""}, "bad baseline name"},
		{[]string{"gate", "-baseline", "nope", results}, `no baseline "nope"`},
		{[]string{"ab", "-baseline", "nope"}, `no baseline "nope"`},
		// cell-ops names what is missing or wrong, never a pair it cannot tell apart.
		{[]string{"cell-ops", "-param", "certs=-5"}, "-impl and -workload name the one cell"},
		{[]string{"cell-ops", "-impl", "rcu", "-workload", "issuer", "-param", "certs=-5"}, "certs"},
		{[]string{"cell-ops", "-impl", "rcu", "-workload", "issuer", "-ops", "0"}, "-ops 0: want at least 1"},
	} {
		code, _, stderr := perfrun(tc.args...)
		if code != subcommand.ExitUsage || !strings.Contains(stderr, tc.msg) {
			t.Errorf("perfrun %v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.msg)
		}
	}
}

func TestHelpAndList(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		if code, out, _ := perfrun(args...); code != 0 || !strings.Contains(out, "run ") || !strings.Contains(out, "Exit codes") {
			t.Errorf("perfrun %v: exit %d\n%s", args, code, out)
		}
	}
	if code, out, _ := perfrun("help", "gate"); code != 0 || !strings.Contains(out, "-threshold") {
		t.Errorf("help gate: exit %d\n%s", code, out)
	}
	if _, out, _ := perfrun("help", "version"); strings.Contains(out, "Flags:") {
		t.Errorf("help version prints an empty Flags: section\n%s", out)
	}
	if _, out, _ := perfrun("help", "compare"); !strings.Contains(out, "-units") {
		t.Errorf("help compare does not list its flags\n%s", out)
	}
	if code, out, _ := perfrun("version"); code != 0 || !strings.HasPrefix(out, "perfrun ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	// Help asked for goes to standard output and exits 0, for every command.
	for _, c := range append(program.Commands, program.Hidden...) {
		if code, out, errOut := perfrun(c.Name, "-h"); code != 0 || errOut != "" || !strings.Contains(out, "usage: perfrun "+c.Name) {
			t.Errorf("%s -h: exit %d, want its help on standard output\nstdout: %s\nstderr: %s", c.Name, code, out, errOut)
		}
	}
	if code, out, _ := perfrun("help", "-h"); code != 0 || !strings.Contains(out, "usage: perfrun help") {
		t.Errorf("help -h: exit %d\n%s", code, out)
	}
	code, out, _ := perfrun("list")
	for _, want := range []string{"sorted", "sortoninsert", "hashmap", "rcu", "issuer", "mixed", "load", "objects", "reload", "hit=1", "cost=own", "harness itself", "empty"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
}

func TestRunWritesResults(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.txt")
	code, stdout, stderr := perfrun("run", "-threads", "1,2", "-rounds", "2", "-window", "10ms", "-warmup", "1ms",
		"-param", "certs=32,64", "-q", "-quarantine=false", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`\| Threads \| +mean/(n|µ|m)?s \| +var/(n|µ|m)?s² \|`).MatchString(stdout) || !strings.Contains(stdout, "certs=64") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Every implementation x 2 sizes x 2 thread counts x 2 rounds.
	if n, want := strings.Count(string(data), "\nBenchmarkIssuer/impl="), len(impls.All())*2*2*2; n != want {
		t.Fatalf("%d result lines, want %d:\n%s", n, want, data)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestRunBadCorpus(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), 0o644)
	code, _, stderr := perfrun("run", "-corpus", bad, "-q", "-o", "")
	if code != subcommand.ExitUsage || !strings.Contains(stderr, bad+":1: certificate:") || !strings.Contains(stderr, "no CA certificate or CRL") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestCorpusCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := perfrun("corpus", "-o", dir, "-cas", "20", "-hits", "5", "-misses", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "20 CAs") {
		t.Fatalf("stdout %q", stdout)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil || strings.Count(string(manifest), "\n") != 1+7 {
		t.Fatalf("manifest: %v\n%s", err, manifest)
	}
	// A bad -o is a usage error (2), found before the corpus is made.
	if code, _, stderr := perfrun("corpus", "-o", dir); code != subcommand.ExitUsage || !strings.Contains(stderr, "already holds a corpus") {
		t.Fatalf("second write: exit %d, %q", code, stderr)
	}
	if code, _, stderr := perfrun("corpus", "-o", filepath.Join(dir, "manifest.tsv")); code != subcommand.ExitUsage || !strings.Contains(stderr, "is a file") {
		t.Fatalf("-o FILE: exit %d, %q", code, stderr)
	}
}

// errWriter fails every write, as /dev/full does.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestLostOutputIsAFailure: output that cannot be written (perfrun list >
// /dev/full) is no success: it exited 0 with the output lost.
func TestLostOutputIsAFailure(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(errWriter{}, &stderr, []string{"list"}); code != subcommand.ExitFailure || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("exit %d, stderr %q; want %d naming the error", code, stderr.String(), subcommand.ExitFailure)
	}
}

// TestCompareShowsGatedUnits: compare of two default runs printed 195
// lines over 10 units; by default it shows the units the gate judges and
// names the rest, one flag away.
func TestCompareShowsGatedUnits(t *testing.T) {
	dir := t.TempDir()
	text := func(base float64) string {
		var b strings.Builder
		b.WriteString("cores: 2\n")
		for i := range 6 {
			fmt.Fprintf(&b, "BenchmarkIssuer/impl=rcu/threads=1 1 %g ns/op %g runq-frac 0 allocs/op\n", base+float64(i), 0.01*float64(i+1))
		}
		return b.String()
	}
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte(text(100)), 0o644)
	os.WriteFile(b, []byte(text(110)), 0o644)
	code, out, stderr := perfrun("compare", a, b)
	if code != 0 || !strings.Contains(out, "sec/op") || strings.Contains(out, "runq-frac  ") || !strings.Contains(out, "1 more units (runq-frac): -units all shows them") {
		t.Errorf("compare: exit %d\n%s%s", code, out, stderr)
	}
	if _, out, _ := perfrun("compare", "-units", "all", a, b); !strings.Contains(out, "runq-frac") || strings.Contains(out, "more units") {
		t.Errorf("compare -units all:\n%s", out)
	}
}

// TestHelpFitsAScreen: every command's -h fits a screen, 30 lines — what
// it does, an example, its common flags one a line — naming the flags it
// leaves out; help -all shows every flag and the whole description. ab's
// once ran to 47 lines, gate's to 52.
func TestHelpFitsAScreen(t *testing.T) {
	var names [][]string
	for _, c := range program.Commands {
		names = append(names, []string{c.Name})
	}
	for _, c := range historycmd.Commands() {
		names = append(names, strings.Fields(c.Name))
	}
	for _, args := range names {
		_, stdout, stderr := perfrun(append(args, "-h")...)
		if n := strings.Count(strings.TrimRight(stdout+stderr, "\n"), "\n") + 1; n > 30 {
			t.Errorf("perfrun %s -h: %d lines, want at most 30", strings.Join(args, " "), n)
		}
	}
	_, short, errOut := perfrun("ab", "-h")
	short += errOut
	if !strings.Contains(short, "More flags:") || !strings.Contains(short, "-speed-limit") || strings.Contains(short, "\n  -speed-limit") {
		t.Errorf("ab -h does not name its other flags:\n%s", short)
	}
	if !strings.Contains(short, "a PASS needs time's") {
		t.Errorf("ab -h does not say how time and instructions combine:\n%s", short)
	}
	_, all, _ := perfrun("help", "-all", "ab")
	if !strings.Contains(all, "\n  -speed-limit") || !strings.Contains(all, "code layout of its own") {
		t.Errorf("help -all ab lacks a flag or the description:\n%s", all)
	}
}

// TestPreviousRunOfOtherDesignsNamed: a run that replaces a results file
// of other designs says the two share no design's cell, naming both files
// (it named this run's as nothing).
func TestPreviousRunOfOtherDesignsNamed(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results.txt")
	args := []string{"run", "-threads", "1", "-rounds", "1", "-window", "10ms", "-warmup", "1ms", "-param", "certs=32",
		"-plots", "none", "-predict", "0", "-quarantine=false", "-o", out}
	if code, _, errs := perfrun(append(args, "-impl", "hashmap")...); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	_, _, errs := perfrun(append(args, "-impl", "rcu")...)
	want := filepath.Join(dir, "results-previous.txt") + " and " + out + " share only the machine's reference cells"
	if !strings.Contains(errs, want) {
		t.Errorf("second run of another design: want %q in\n%s", want, errs)
	}
}

// TestMissingTempDirNamed: a TMPDIR that names no folder is said at once,
// naming it, before any work (each command failed later in words of its
// own that did not name it).
func TestMissingTempDirNamed(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	code, _, stderr := perfrun("run", "-impl", "rcu", "-threads", "1", "-rounds", "1")
	if code != subcommand.ExitUsage || !strings.Contains(stderr, "TMPDIR=") || !strings.Contains(stderr, "gone is not a folder") {
		t.Errorf("exit %d, want %d naming TMPDIR:\n%s", code, subcommand.ExitUsage, stderr)
	}
}
