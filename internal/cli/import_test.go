package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/recorded"
)

// TestImportedFormatsGateAndHistory: a file of each tool, imported, is
// gated against itself (nothing moved: not a regression) and added to a
// history, as perfrun's own results are. testdata/imports.tar.gz holds
// the importers' round-trip files (records/importers/testdata/README.md),
// with a callgrind file of a small C program (testdata/README.md) for
// theirs of ls.
func TestImportedFormatsGateAndHistory(t *testing.T) {
	dir := t.TempDir()
	files, err := recorded.Unpack(filepath.Join("testdata", "imports.tar.gz"), dir)
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
		code, stdout, stderr := perfrun("gate", out, out)
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
