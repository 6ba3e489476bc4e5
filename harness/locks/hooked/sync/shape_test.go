package sync

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"slices"
	std "sync"
	stdatomic "sync/atomic"
	"testing"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
	"github.com/perfrun/perfrun/harness/locks/hooked/sync/atomic"
)

// exported lists the exported top-level names and methods (Type.Method)
// the non-test files of the package in dir declare for this platform.
func exported(t *testing.T, dir string) []string {
	t.Helper()
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
					names = append(names, id.Name+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						names = append(names, ts.Name.Name)
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// The hooked packages declare every name the standard ones do, and the
// methods of the types they wrap (an alias has the standard methods):
// a Go that adds to sync or sync/atomic fails here, not in a build for
// lock profiles of a store that uses what it added.
func TestEveryStandardNameIsDeclared(t *testing.T) {
	for _, c := range []struct{ std, hooked string }{
		{"sync", "."},
		{"sync/atomic", "atomic"},
	} {
		want := exported(t, filepath.Join(runtime.GOROOT(), "src", c.std))
		have := exported(t, c.hooked)
		for _, name := range want {
			typ, _, isMethod := cut(name)
			if isMethod && !slices.Contains(have, typ) {
				continue // the type is missing, named once
			}
			if !slices.Contains(have, name) && !(isMethod && aliased(c.std, typ)) {
				t.Errorf("the hooked %s has no %s", c.std, name)
			}
		}
	}
}

// aliased says whether the hooked package declares typ as the standard
// one (its methods are the standard ones).
func aliased(pkg, typ string) bool {
	switch pkg {
	case "sync":
		return slices.Contains([]string{"Cond", "Map", "Once", "Pool", "WaitGroup", "Locker"}, typ)
	case "sync/atomic":
		return typ == "Value"
	}
	return false
}

func cut(name string) (typ, method string, ok bool) {
	for i := range name {
		if name[i] == '.' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

// Each hooked type is the standard one, size and alignment: a store laid
// out on cache lines is laid out alike in a build for lock profiles.
func TestTypesAreTheStandardOnes(t *testing.T) {
	for _, c := range []struct {
		name            string
		size, stdSize   uintptr
		align, stdAlign uintptr
	}{
		{"Mutex", unsafe.Sizeof(Mutex{}), unsafe.Sizeof(std.Mutex{}), unsafe.Alignof(Mutex{}), unsafe.Alignof(std.Mutex{})},
		{"RWMutex", unsafe.Sizeof(RWMutex{}), unsafe.Sizeof(std.RWMutex{}), unsafe.Alignof(RWMutex{}), unsafe.Alignof(std.RWMutex{})},
		{"Int64", unsafe.Sizeof(atomic.Int64{}), unsafe.Sizeof(stdatomic.Int64{}), unsafe.Alignof(atomic.Int64{}), unsafe.Alignof(stdatomic.Int64{})},
		{"Uint64", unsafe.Sizeof(atomic.Uint64{}), unsafe.Sizeof(stdatomic.Uint64{}), unsafe.Alignof(atomic.Uint64{}), unsafe.Alignof(stdatomic.Uint64{})},
		{"Int32", unsafe.Sizeof(atomic.Int32{}), unsafe.Sizeof(stdatomic.Int32{}), unsafe.Alignof(atomic.Int32{}), unsafe.Alignof(stdatomic.Int32{})},
		{"Bool", unsafe.Sizeof(atomic.Bool{}), unsafe.Sizeof(stdatomic.Bool{}), unsafe.Alignof(atomic.Bool{}), unsafe.Alignof(stdatomic.Bool{})},
		{"Pointer", unsafe.Sizeof(atomic.Pointer[int]{}), unsafe.Sizeof(stdatomic.Pointer[int]{}), unsafe.Alignof(atomic.Pointer[int]{}), unsafe.Alignof(stdatomic.Pointer[int]{})},
	} {
		if c.size != c.stdSize || c.align != c.stdAlign {
			t.Errorf("hooked %s: size %d, align %d; the standard one's %d, %d", c.name, c.size, c.align, c.stdSize, c.stdAlign)
		}
	}
}

// The address a hooked RWMutex tells is the word the standard one writes:
// 1 while one reader holds it, 0 after, negative while a writer does.
func TestReaderCountIsTheWordWritten(t *testing.T) {
	if hooked.Unshaped != "" {
		t.Fatal(hooked.Unshaped)
	}
	var rw RWMutex
	count := (*int32)(rw.readerCount())
	var told []unsafe.Pointer
	hooked.Atomic = func(addr unsafe.Pointer) { told = append(told, addr) }
	defer func() { hooked.Atomic = nil }()
	rw.RLock()
	if *count != 1 {
		t.Errorf("one reader: the word told holds %d", *count)
	}
	rw.RUnlock()
	rw.Lock()
	if *count >= 0 {
		t.Errorf("a writer: the word told holds %d", *count)
	}
	rw.Unlock()
	if *count != 0 || len(told) != 4 {
		t.Errorf("after: %d, told %d writes, want 0 and 4", *count, len(told))
	}
	for _, a := range told {
		if a != unsafe.Pointer(count) {
			t.Errorf("told %p, the reader count is at %p", a, count)
		}
	}
}
