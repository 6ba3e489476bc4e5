package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/recorded"
)

// TestImportedFormatsGateAndHistory: a file of each tool, imported, is
// gated against a second run a thousandth slower (not a regression) and
// added to a
// history, as perfrun's own results are. testdata/imports.tar.bz2 holds
// the importers' round-trip files (records/importers/testdata/README.md),
// with a callgrind file of a small C program (testdata/README.md) for
// theirs of ls.
func TestImportedFormatsGateAndHistory(t *testing.T) {
	dir := t.TempDir()
	files, err := recorded.Unpack(dir, filepath.Join("testdata", "imports.tar.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	for format, file := range map[string]string{
		"hyperfine":       "hyperfine-1.15.json",
		"googlebenchmark": "googlebenchmark-1.7.1.json",
		"callgrind":       "callgrind.out.sum-3.19.txt",
		"jmh":             "jmh-output-golden.json",
	} {
		out := filepath.Join(dir, format+".txt")
		in := filepath.Join(files, file)
		if code, _, stderr := perfrun("import", "-format", format, "-o", out, in); code != 0 {
			t.Fatalf("%s: import exit %d: %s", format, code, stderr)
		}
		// Gated against a second run a thousandth slower: a file against
		// itself is one measurement, which gate refuses.
		again := filepath.Join(dir, format+"-again.txt")
		if err := os.WriteFile(again, slower(t, out), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := perfrun("gate", out, again)
		// PASS, or INCONCLUSIVE where the tool's own spread is wide
		// (JMH's synthetic golden values); never a regression or an error.
		if (code != 0 && code != 3) || strings.Contains(stdout, "REGRESSION") {
			t.Errorf("%s: gate of a file against itself: exit %d\n%s%s", format, code, stdout, stderr)
		}
		db := filepath.Join(dir, format+".db")
		code, stdout, stderr = perfrun("history", "add", "-db", db, "-commit", "abc1230000000000000000000000000000000000", "-commit-time", "2026-12-01", out)
		if code != 0 || !strings.Contains(stdout, "of 1 run") {
			t.Errorf("%s: history add: exit %d\n%s%s", format, code, stdout, stderr)
		}
	}
}

// slower is a results file's text with each result's first value a
// thousandth larger.
func slower(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "Benchmark") || len(f) < 4 {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		f[2] = strconv.FormatFloat(v*1.001, 'g', -1, 64)
		lines[i] = strings.Join(f, " ")
	}
	return []byte(strings.Join(lines, "\n"))
}
