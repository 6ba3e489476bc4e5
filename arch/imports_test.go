package arch

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/perfrun/perfrun/"

// layers ranks every package of the module, lowest first. The rule, and
// all of it: a Go file, test files included, may import a package of the
// module only if that package's layer is strictly lower than its own
// package's. One exception, for tests alone: a test file may also import
// its own package (an external test, package x_test) and the registry
// (impls), so that a package's tests can run every built-in design while
// its code receives an implementation as a store.Impl.
//
// What the ranks say: the store contract and the results model are at the
// bottom; the conformance kit and the workloads sit below every
// implementation (a kit the implementations import must); the harness is
// above the designs but below the registry, so it never names one; the
// reports are above the harness; the CLI, the public entry point and the
// command are on top.
var layers = []struct {
	pkg   string
	layer int
}{
	{"internal/git", -2},
	{"internal/regularfile", -1},
	{"internal/recorded", -1},
	{"internal/threadcpu", -1},
	{"internal/selfsource", -1},
	{"internal/needs", -1},
	{"internal/scratch", -1},
	{"internal/filelock", -1},
	{"store/certgen", 0},
	{"store/ownlock", 0},
	{"records", 0},
	{"history/changepoint", 0},
	{"history/internal/pgxserver", 0},
	{"internal/browser", 0},
	{"internal/procgroup", 0},
	{"internal/gobuild", 1},
	{"harness/callgrind", 1},
	{"internal/baselines", 1},
	{"store", 1},
	{"records/importers", 1},
	{"compare", 1},
	{"predict/published", 1},
	{"store/corpus", 2},
	{"predict", 2}, // the model, its constants, and what it makes of a change
	{"history", 2},
	{"history/drivers", 3},        // the databases, linked where a program opens a history
	{"internal/hostconstants", 3}, // a machine's own constants, kept between runs
	{"store/storetest", 3},
	{"workloads", 3},
	{"harness/locks", 3},
	{"internal/ab", 4},
	{"internal/flagvalue", 4}, // flag values checked where they are read
	{"impls/rcu", 4},          // and every other impls/NAME (layerOf)
	{"harness/foreign", 4},
	{"harness", 5},
	{"report", 6},
	{"internal/abcount", 6},
	{"internal/terminal", 6},   // output no name can drive, the progress line, Ctrl-C
	{"internal/subcommand", 7}, // a command's flags, help and exit code
	{"impls", 7},
	{"internal/publish", 7},
	{"internal/campaign", 7},
	{"internal/backfill", 7},
	{"internal/summary", 7},
	{"internal/cellops", 8},     // what a count runs, and all a build for counting holds
	{"internal/bisect", 8},      // the search, its probe, and what it found as text and data
	{"internal/sweep", 9},       // run's procedure, and the cells a command chooses
	{"internal/historycmd", 10}, // history's subcommands, as cmd/go's modcmd
	{"internal/cli", 11},
	{".", 12}, // package perfrun, the public entry point
	{"cmd/perfrun", 13},
	{"arch", 13},
	{"docs/check", 13}, // the docs' own checks, a command of their own
}

// registry is the package test files may import from any layer.
const registry = "impls"

// drawer is the one package that imports the plotting library, drawing,
// so every picture shares one size, style and file handling.
const (
	drawer  = "report"
	drawing = "gonum.org/"
)

func TestLayersInOrder(t *testing.T) {
	if !slices.IsSortedFunc(layers, func(a, b struct {
		pkg   string
		layer int
	}) int {
		return a.layer - b.layer
	}) {
		t.Error("layers is out of order: list it lowest layer first")
	}
}

// TestImportsPointDown reads the import clauses of every Go file of the
// module (reading the files, rather than asking go list, lets the test
// cache see when one changes).
func TestImportsPointDown(t *testing.T) {
	for _, v := range violations(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// moduleRoot is the module's directory, the tree the checks read.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// planter returns a function that writes a file of Go source under a
// fresh tree, for a test that shows a check failing on what it plants.
func planter(t *testing.T) (root string, plant func(rel, src string)) {
	t.Helper()
	root = t.TempDir()
	return root, func(rel, src string) {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlantedUpwardImport shows the check failing: a package that imports
// one above it, in a file or in a test file, is reported.
func TestPlantedUpwardImport(t *testing.T) {
	root, plant := planter(t)
	plant("workloads/w.go", "package workloads\nimport _ \""+module+"harness\"\n")
	plant("store/s_test.go", "package store\nimport _ \""+module+"store/corpus\"\n")
	plant("harness/h_test.go", "package harness_test\nimport _ \""+module+"impls\"\n") // allowed: the registry
	plant("newpkg/n.go", "package newpkg\n")
	plant("history/chart.go", "package history\nimport _ \"gonum.org/v1/plot\"\n")
	plant("report/plot.go", "package report\nimport _ \"gonum.org/v1/plot\"\n")                          // allowed: the drawer
	plant("results/tool/tool.go", "//go:build ignore\n\npackage main\nimport _ \""+module+"harness\"\n") // a go-run program: not a package
	got := violations(t, root)
	if len(got) != 4 {
		t.Fatalf("want 4 violations (history draws, newpkg without a layer, store's test → store/corpus, workloads → harness), got %d: %q", len(got), got)
	}
	for i, sub := range []string{"history imports gonum.org/v1/plot in chart.go: only report draws", "newpkg has no layer", "store (layer 1) imports store/corpus (layer 2) in s_test.go", "workloads (layer 3) imports harness (layer 5) in w.go"} {
		if !strings.Contains(got[i], sub) {
			t.Errorf("violation %d = %q, want it to say %q", i, got[i], sub)
		}
	}
}

// ignored says f is a standalone program kept beside data (//go:build
// ignore, run with go run FILE), which no package build includes.
func ignored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if expr, err := constraint.Parse(c.Text); err == nil && expr.String() == "ignore" {
				return true
			}
		}
	}
	return false
}

// violations lists every import under root that breaks the rule, in path
// order.
func violations(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	walkModule(t, root, func(name string) bool { return name == "testdata" || name == "examples" }, func(path string) error {
		isTest := strings.HasSuffix(path, "_test.go")
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if ignored(f) {
			return nil // a program run with go run, never built into a package
		}
		layer, ok := layerOf(pkg)
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no layer: give it one in arch/imports_test.go", pkg))
			return nil
		}
		for _, imp := range f.Imports {
			imported := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(imported, drawing) && pkg != drawer {
				out = append(out, fmt.Sprintf("%s imports %s in %s: only %s draws", pkg, imported, filepath.Base(path), drawer))
			}
			dep, ours := strings.CutPrefix(imported, module)
			if !ours || isTest && (dep == registry || dep == pkg) {
				continue
			}
			if l, known := layerOf(dep); known && l >= layer {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d) in %s: imports must point down", pkg, layer, dep, l, filepath.Base(path)))
			}
		}
		return nil
	})
	return out
}

// layerOf is a package's layer. Every implementation under impls/ is on
// the implementations' layer without a line here, so that adding one takes
// its package and a registry line, nothing else.
func layerOf(pkg string) (int, bool) {
	for _, l := range layers {
		if l.pkg == pkg {
			return l.layer, true
		}
	}
	if name, ok := strings.CutPrefix(pkg, "impls/"); ok && !strings.Contains(name, "/") {
		return layerOf("impls/rcu")
	}
	return 0, false
}
