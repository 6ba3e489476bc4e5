package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MostFunctionLines bounds a function, tests and testdata programs
// included: one that does not fit a screen does more than one thing.
const MostFunctionLines = 80

// TestNoFunctionIsLong: every function of the module fits
// MostFunctionLines.
func TestNoFunctionIsLong(t *testing.T) {
	for _, long := range longFunctions(t, moduleRoot(t)) {
		t.Error(long)
	}
}

// TestPlantedLongFunctionFound shows the check failing on a function one
// line past the bound, and not on one at it.
func TestPlantedLongFunctionFound(t *testing.T) {
	root, plant := planter(t)
	body := func(lines int) string { return strings.Repeat("\t_ = 1\n", lines-2) }
	plant("go.mod", "module x\n")
	plant("a/a.go", "package a\n\nfunc Long() {\n"+body(MostFunctionLines+1)+"}\n\nfunc Fits() {\n"+body(MostFunctionLines)+"}\n")
	got := longFunctions(t, root)
	if len(got) != 1 || !strings.Contains(got[0], "Long") {
		t.Errorf("got %q, want Long alone", got)
	}
}

// TestTheCommandLineWiresAndPrints: internal/cli, which wires flags and
// prints, holds at most half the code of harness/, which measures: a
// procedure in the command line belongs to a package of its own
// (internal/sweep, internal/campaign, internal/historycmd, history,
// report), and so do a command's framework (internal/subcommand) and the
// terminal's (internal/terminal).
func TestTheCommandLineWiresAndPrints(t *testing.T) {
	root := moduleRoot(t)
	cli, harness := goLines(t, filepath.Join(root, "internal", "cli")), goLines(t, filepath.Join(root, "harness"))
	t.Logf("internal/cli %d lines, harness/ %d", cli, harness)
	if 2*cli > harness {
		t.Errorf("internal/cli holds %d lines of code, more than half of harness/'s %d: move a command's procedure into its package", cli, harness)
	}
}

// TestPlantedBigCommandLineFound shows the count: tests and testdata left
// out, folders below counted.
func TestPlantedBigCommandLineFound(t *testing.T) {
	root, plant := planter(t)
	plant("cli/a.go", "package cli\n\nvar A = 1\n")
	plant("cli/a_test.go", strings.Repeat("// a test\n", 50))
	plant("cli/sub/b.go", "package sub\n")
	plant("cli/testdata/c.go", strings.Repeat("// data\n", 50))
	if got := goLines(t, filepath.Join(root, "cli")); got != 4 {
		t.Errorf("counted %d lines, want the 3 of a.go and the 1 of sub/b.go", got)
	}
}

// longFunctions names the functions under root longer than
// MostFunctionLines, but those of modules nested in it (results/,
// examples/).
func longFunctions(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	walkModule(t, root, func(string) bool { return false }, func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Body != nil {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > MostFunctionLines {
					rel, _ := filepath.Rel(root, path)
					out = append(out, fmt.Sprintf("%s: %s is %d lines, over %d", rel, fn.Name.Name, n, MostFunctionLines))
				}
			}
		}
		return nil
	})
	return out
}

// goLines counts the lines of the Go files under dir, tests and testdata
// left out.
func goLines(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n += strings.Count(string(data), "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
