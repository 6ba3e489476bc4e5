package arch

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/perfrun/perfrun/"

// layers ranks every package of the module. A package may import another
// only if that one's layer is strictly lower: storetest may use the store
// and the corpus below it, never an implementation; workloads and the
// harness receive an implementation as a store.Impl, never the registry
// (both are above the store, beside or below the registry); a report
// never needs a store.
var layers = map[string]int{
	"store":                           0,
	"store/certgen":                   0,
	"internal/harness/results":        0,
	"internal/history/changepoint":    0,
	"internal/harness/report/browser": 0,
	"internal/history":                2,
	"store/corpus":                    1,
	"internal/harness/compare":        1,
	"store/storetest":                 2,
	"internal/impls/rcu":              2, // and every other internal/impls/NAME (layerOf)
	"internal/harness/ab":             2,
	"internal/impls":                  3,
	"internal/workloads":              3,
	"internal/harness":                4,
	"internal/harness/report":         5,
	"internal/history/chart":          6,
	"internal/cli":                    8,
	".":                               9, // package perfrun, the public entry point
	"cmd/perfrun":                     10,
	"arch":                            10,
}

// TestImportsPointDown reads the import clauses of every non-test Go file
// of the module (reading the files, rather than asking go list, lets the
// test cache see when one changes).
func TestImportsPointDown(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		layer, ok := layerOf(pkg)
		if !ok {
			t.Errorf("package %s has no layer: give it one in arch/imports_test.go", pkg)
			return nil
		}
		for _, imp := range f.Imports {
			dep, ours := strings.CutPrefix(strings.Trim(imp.Path.Value, `"`), module)
			if !ours {
				continue
			}
			if l, known := layerOf(dep); known && l >= layer {
				t.Errorf("%s (layer %d) imports %s (layer %d) in %s: imports must point down", pkg, layer, dep, l, filepath.Base(path))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// layerOf is a package's layer. Every implementation under internal/impls/
// is on the implementations' layer without a line here, so that adding one
// takes its package and a registry line, nothing else.
func layerOf(pkg string) (int, bool) {
	if l, ok := layers[pkg]; ok {
		return l, true
	}
	if strings.HasPrefix(pkg, "internal/impls/") && !strings.Contains(strings.TrimPrefix(pkg, "internal/impls/"), "/") {
		return layers["internal/impls/rcu"], true
	}
	return 0, false
}
