package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPromisedPackagesKeepTheirPromise: every package outside internal/
// is importable, so it must say what it keeps — a paragraph of its package
// doc starting "Its promise" (the root package: "What is promised") — and
// show its use in an Example that go test runs.
func TestPromisedPackagesKeepTheirPromise(t *testing.T) {
	for _, p := range unpromised(t, moduleRoot(t)) {
		t.Error(p)
	}
}

// TestUnpromisedPackageFound shows the check failing: a package without
// the paragraph and one without an example are both named; internal/ and
// commands are not held to it.
func TestUnpromisedPackageFound(t *testing.T) {
	root, plant := planter(t)
	plant("kept/kept.go", "// Package kept is kept.\n//\n// Its promise: all of it.\npackage kept\n")
	plant("kept/example_test.go", "package kept_test\n\nfunc ExampleThing() {}\n")
	plant("quiet/quiet.go", "// Package quiet says nothing of what it keeps.\npackage quiet\n")
	plant("quiet/example_test.go", "package quiet_test\n\nfunc ExampleThing() {}\n")
	plant("shy/shy.go", "// Package shy keeps.\n//\n// Its promise: much.\npackage shy\n")
	plant("internal/plumbing/p.go", "package plumbing\n")
	plant("cmd/tool/main.go", "package main\n")
	got := unpromised(t, root)
	want := []string{"quiet: its package doc has no \"Its promise\" paragraph", "shy: no Example function shows its use"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// unpromised lists the importable packages under root that do not say
// what they keep or show no example, in path order.
func unpromised(t *testing.T, root string) []string {
	t.Helper()
	type pkg struct{ doc, example bool }
	pkgs := make(map[string]*pkg)
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "internal" ||
				rel == "cmd" || rel == "examples" || rel == "arch" || rel == "results") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ignored(f) || f.Name.Name == "main" {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		p := pkgs[dir]
		if p == nil {
			p = &pkg{}
			pkgs[dir] = p
		}
		if f.Doc != nil {
			text := f.Doc.Text()
			p.doc = p.doc || strings.Contains(text, "\nIts promise") || strings.Contains(text, "What is promised")
		}
		if strings.HasSuffix(path, "_test.go") {
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Example") {
					p.example = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for dir, p := range pkgs {
		if !p.doc {
			out = append(out, fmt.Sprintf("%s: its package doc has no \"Its promise\" paragraph", dir))
		}
		if !p.example {
			out = append(out, fmt.Sprintf("%s: no Example function shows its use", dir))
		}
	}
	slices.Sort(out)
	return out
}
