package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryBuildGoesThroughGobuild: no package but internal/gobuild runs
// "go build" itself, so every build perfrun makes checks go's environment
// first, quotes only the end of go's output and stops go gently.
func TestEveryBuildGoesThroughGobuild(t *testing.T) {
	for _, v := range ownBuilds(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// TestPlantedBuildFound shows the check failing on a package that runs go
// build itself.
func TestPlantedBuildFound(t *testing.T) {
	root, plant := planter(t)
	plant("harness/b.go", "package harness\nimport \"os/exec\"\nvar _ = exec.Command(\"go\", \"build\", \".\")\n")
	plant("internal/gobuild/g.go", "package gobuild\nimport \"os/exec\"\nvar _ = exec.Command(\"go\", \"build\", \".\")\n")
	got := ownBuilds(t, root)
	if len(got) != 1 || !strings.Contains(got[0], "harness/b.go") {
		t.Errorf("got %q, want harness/b.go alone", got)
	}
}

// ownBuilds lists the calls outside internal/gobuild whose arguments are
// the strings "go" and then "build", test files left out.
func ownBuilds(t *testing.T, root string) []string {
	return callsOutside(t, root, filepath.Join("internal", "gobuild"), "runs go build itself; use internal/gobuild", func(_ string, words []string) bool {
		for i := 0; i+1 < len(words); i++ {
			if words[i] == "go" && words[i+1] == "build" {
				return true
			}
		}
		return false
	})
}

// callsOutside lists the files outside the folder except (and outside
// tests, testdata and results) with a call whose function (as written:
// "exec.Command") and string-literal arguments match, each once, with say.
func callsOutside(t *testing.T, root, except, say string, match func(fun string, words []string) bool) []string {
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "results" || rel == except) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		seen := false
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || seen {
				return !seen
			}
			var words []string
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						words = append(words, s)
					}
				}
			}
			fun := ""
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					fun = x.Name + "." + sel.Sel.Name
				}
			}
			if match(fun, words) {
				found, seen = append(found, rel+": "+say), true
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
