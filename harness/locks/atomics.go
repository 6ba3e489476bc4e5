package locks

import (
	"fmt"
	"go/ast"
	"go/parser"
	"os"
	"path/filepath"
	"slices"
)

// writers are the methods of sync/atomic's types that write their value,
// per type: each is an atomic instruction callgrind counts (a store is an
// exchange on amd64), and the overlay has each tell the hook its address.
var writers = map[string][]string{
	"Int32":   {"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"},
	"Int64":   {"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"},
	"Uint32":  {"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"},
	"Uint64":  {"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"},
	"Uintptr": {"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"},
	"Bool":    {"Store", "Swap", "CompareAndSwap"},
	"Pointer": {"Store", "Swap", "CompareAndSwap"},
}

// writerMethods is how many methods writers names.
func writerMethods() int {
	n := 0
	for _, m := range writers {
		n += len(m)
	}
	return n
}

// reader is the method of each of writers' types that reads its value:
// the overlay has it tell a read hook its address, so a profile sees the
// reads of lines other calls write (readLines).
const reader = "Load"

// overlayAtomics adds to replace the overlay of sync/atomic (in
// atomicDir) written into dir: its types' writing methods tell a hook the
// address they write (the lock profile's lines), their Load another the
// address it reads, and a file holds the hooks. The package-level
// functions (atomic.AddInt64(&x, 1)) are the compiler's own instructions
// and tell nothing: their atomics are counted but their lines are not
// known, and their reads are not seen.
func overlayAtomics(atomicDir, dir string, replace map[string]string) error {
	src := filepath.Join(atomicDir, "type.go")
	text, err := rewriteAtomics(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(dir, "atomic-type.go")
	if err := os.WriteFile(dst, text, 0o644); err != nil {
		return err
	}
	replace[src] = dst
	hook := filepath.Join(dir, "atomic-perfrun_locks.go")
	if err := os.WriteFile(hook, []byte(atomicHookFile), 0o644); err != nil {
		return err
	}
	replace[filepath.Join(atomicDir, "zz_perfrun_locks.go")] = hook
	return nil
}

// rewriteAtomics has every writing method of the file at path (sync/atomic's
// type.go) call perfrunAtomic with the address of its value first, and
// every Load of those types perfrunAtomicRead. Every method writers names
// must be found, and each type's Load, each with its value in x.v: a Go
// whose sync/atomic is shaped otherwise is refused, never profiled wrong.
func rewriteAtomics(path string) ([]byte, error) {
	return rewriteGo(path, func(f *ast.File) error {
		found, loads := 0, 0
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok || len(fn.Recv.List[0].Names) != 1 {
				continue
			}
			typ := star.X
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X // Pointer[T]
			}
			id, ok := typ.(*ast.Ident)
			if !ok || writers[id.Name] == nil {
				continue
			}
			x := fn.Recv.List[0].Names[0].Name
			if fn.Name.Name == reader {
				read, err := parser.ParseExpr(fmt.Sprintf("perfrunAtomicRead(unsafe.Pointer(&%s.v))", x))
				if err != nil {
					return err
				}
				fn.Body.List = append([]ast.Stmt{&ast.ExprStmt{X: read}}, fn.Body.List...)
				loads++
				continue
			}
			if !slices.Contains(writers[id.Name], fn.Name.Name) {
				continue
			}
			call, err := parser.ParseExpr(fmt.Sprintf("perfrunAtomic(unsafe.Pointer(&%s.v))", x))
			if err != nil {
				return err
			}
			if err := spinHooks(fn, x); err != nil {
				return fmt.Errorf("%s: %s.%s: %w", path, id.Name, fn.Name.Name, err)
			}
			fn.Body.List = append([]ast.Stmt{&ast.ExprStmt{X: call}}, fn.Body.List...)
			found++
		}
		if want := writerMethods(); found != want || loads != len(writers) {
			return fmt.Errorf("%s is not shaped as lock profiles know it (%d writing methods and %d reading, want %d and %d): this Go cannot be profiled",
				path, found, loads, want, len(writers))
		}
		return nil
	})
}

// spinHooks has a CompareAndSwap method (fn, its receiver x) tell the
// spin hook of a swap that took the word, after it, and a Store method
// tell it of the word given back, before it: a lock built on a word
// (taken by a CompareAndSwap, given back by a Store) is then seen as a
// lock is (spins). A CompareAndSwap must end in one returned call.
func spinHooks(fn *ast.FuncDecl, x string) error {
	switch fn.Name.Name {
	case "Store":
		call, err := parser.ParseExpr(fmt.Sprintf("perfrunReleasing(unsafe.Pointer(&%s.v))", x))
		if err != nil {
			return err
		}
		fn.Body.List = append([]ast.Stmt{&ast.ExprStmt{X: call}}, fn.Body.List...)
	case "CompareAndSwap":
		last := len(fn.Body.List) - 1
		ret, ok := fn.Body.List[last].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return fmt.Errorf("not one returned call")
		}
		wrap, err := parser.ParseExpr(fmt.Sprintf("perfrunAcquired(unsafe.Pointer(&%s.v), false)", x))
		if err != nil {
			return err
		}
		wrap.(*ast.CallExpr).Args[1] = ret.Results[0]
		ret.Results[0] = wrap
	}
	return nil
}

// atomicHookFile is added to package sync/atomic: the hook its writing
// methods call, set only while a profile counts.
const atomicHookFile = `// Code generated by perfrun's lock profiler (harness/locks). DO NOT EDIT.

package atomic

import "unsafe"

// perfrunAtomicHook, when set, is told the address every writing method
// of this package's types writes, before it writes.
//
//go:linkname perfrunAtomicHook
var perfrunAtomicHook func(addr unsafe.Pointer)

func perfrunAtomic(addr unsafe.Pointer) {
	if h := perfrunAtomicHook; h != nil {
		h(addr)
	}
}

// perfrunAtomicReadHook, when set, is told the address every Load of
// this package's types reads, before it reads.
//
//go:linkname perfrunAtomicReadHook
var perfrunAtomicReadHook func(addr unsafe.Pointer)

func perfrunAtomicRead(addr unsafe.Pointer) {
	if h := perfrunAtomicReadHook; h != nil {
		h(addr)
	}
}

// perfrunSpinHook, when set, is told of every CompareAndSwap that took
// its word (after it) and every Store (before it): a word taken by the
// one and given back by the other is a lock.
//
//go:linkname perfrunSpinHook
var perfrunSpinHook func(addr unsafe.Pointer, acquired bool)

func perfrunAcquired(addr unsafe.Pointer, swapped bool) bool {
	if h := perfrunSpinHook; h != nil && swapped {
		h(addr, true)
	}
	return swapped
}

func perfrunReleasing(addr unsafe.Pointer) {
	if h := perfrunSpinHook; h != nil {
		h(addr, false)
	}
}
`
