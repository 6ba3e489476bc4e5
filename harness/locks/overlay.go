package locks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Tag is the build tag a profiling binary is built with, beside -overlay:
// it installs this package's hooks into the overlay of the standard sync
// and sync/atomic (Overlay).
const Tag = "perfrun_locks"

// olderTag is the tag a tree from before this one (an older revision ab
// builds) needs beside Tag to link its hooks into the standard overlay:
// such a tree's hooks otherwise go to packages it had sync imported as.
// A tree without those packages ignores it.
const olderTag = "perfrun_locks_std"

// shapes are, per file of package sync, how many lock methods it
// declares and how many calls RWMutex makes to its inner Mutex (Lock,
// TryLock, and Unlock twice).
var shapes = map[string][2]int{"mutex.go": {3, 0}, "rwmutex.go": {6, 4}}

// renamed are the methods the overlay moves aside, per receiver type, so
// that the overlay's own methods of those names can wrap them with the hook.
var renamed = map[string][]string{
	"Mutex":   {"Lock", "TryLock", "Unlock"},
	"RWMutex": {"Lock", "TryLock", "Unlock", "RLock", "TryRLock", "RUnlock"},
}

// Overlay writes, into dir, a `go build -overlay` file of the standard
// sync and sync/atomic for the Go toolchain that builds in buildDir (its
// GOROOT: a module may ask for another toolchain), and returns its path.
// With it and the tag Tag, sync.Mutex's and sync.RWMutex's methods tell
// the hook this package installs; without the tag the binary behaves as
// ever.
func Overlay(ctx context.Context, buildDir, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir = buildDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	syncDir := filepath.Join(strings.TrimSpace(string(out)), "src", "sync")
	replace := make(map[string]string)
	for _, name := range []string{"mutex.go", "rwmutex.go"} {
		src := filepath.Join(syncDir, name)
		text, err := rewrite(src)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(dir, "sync-"+name)
		if err := os.WriteFile(dst, text, 0o644); err != nil {
			return "", err
		}
		replace[src] = dst
	}
	hook := filepath.Join(dir, "sync-perfrun_locks.go")
	if err := os.WriteFile(hook, []byte(syncHookFile), 0o644); err != nil {
		return "", err
	}
	replace[filepath.Join(syncDir, "zz_perfrun_locks.go")] = hook
	if err := overlayAtomics(filepath.Join(syncDir, "atomic"), dir, replace); err != nil {
		return "", err
	}
	return writeOverlay(dir, replace)
}

// writeOverlay writes replace into dir as go build -overlay reads it and
// returns the file's path.
func writeOverlay(dir string, replace map[string]string) (string, error) {
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}

// rewrite renames the lock methods of the file at path (Lock becomes
// perfrunLock) and the calls RWMutex makes to its inner Mutex, which is
// not a lock of the store's own. Every rename must happen: a Go whose sync
// is shaped otherwise is refused, never profiled wrong.
func rewrite(path string) ([]byte, error) {
	return rewriteGo(path, func(f *ast.File) error { return renameLocks(path, f) })
}

// rewriteGo is the Go file at path, parsed, edited and printed again.
func rewriteGo(path string, edit func(*ast.File) error) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if err := edit(f); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// renameLocks is rewrite's edit of f, sync's file at path.
func renameLocks(path string, f *ast.File) error {
	methods, calls := 0, 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		if recv, ok := star.X.(*ast.Ident); ok && slices.Contains(renamed[recv.Name], fn.Name.Name) {
			fn.Name.Name = "perfrun" + fn.Name.Name
			methods++
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		inner, ok := sel.X.(*ast.SelectorExpr)
		if ok && inner.Sel.Name == "w" && isIdent(inner.X, "rw") && slices.Contains(renamed["Mutex"], sel.Sel.Name) {
			sel.Sel.Name = "perfrun" + sel.Sel.Name
			calls++
		}
		return true
	})
	if want := shapes[filepath.Base(path)]; methods != want[0] || calls != want[1] {
		return fmt.Errorf("%s is not shaped as lock profiles know it (%d lock methods and %d inner calls, want %d and %d): this Go cannot be profiled",
			path, methods, calls, want[0], want[1])
	}
	return nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// The events the hook is told of: a kind of lock and mode, acquired or
// released (release = acquire + 1). Each kind has a wrapper path of its
// own, whose cost inside a held region is measured apart (calibrate).
// sync's are the overlay's numbers (syncHookFile).
const (
	mutexAcquire = iota
	mutexRelease
	writeAcquire
	writeRelease
	readAcquire
	readRelease
	cAcquire // a lock reported by a Source, exclusive
	cRelease
	cReadAcquire // a lock reported by a Source, shared
	cReadRelease
	ownAcquire // a Go lock of the program's own (ownlock.Acquired)
	ownRelease
	spinAcquire // a lock built on a word of sync/atomic's (spins)
	spinRelease
	events
)

// syncHookFile is added to package sync: the methods the overlay moved
// aside, wrapped with the hook. They are never inlined, so what the hook
// adds inside a held region is the same wherever a store locks.
const syncHookFile = `// Code generated by perfrun's lock profiler (harness/locks). DO NOT EDIT.

package sync

import "unsafe"

// perfrunLockHook, when set, is told of every acquisition (after it) and
// release (before it) of a Mutex or RWMutex.
//
//go:linkname perfrunLockHook
var perfrunLockHook func(event int, lock unsafe.Pointer)

func perfrunHook(event int, lock unsafe.Pointer) {
	if h := perfrunLockHook; h != nil {
		h(event, lock)
	}
}

//go:noinline
func (m *Mutex) Lock() { m.perfrunLock(); perfrunHook(0, unsafe.Pointer(m)) }

//go:noinline
func (m *Mutex) TryLock() bool {
	if !m.perfrunTryLock() {
		return false
	}
	perfrunHook(0, unsafe.Pointer(m))
	return true
}

//go:noinline
func (m *Mutex) Unlock() { perfrunHook(1, unsafe.Pointer(m)); m.perfrunUnlock() }

//go:noinline
func (rw *RWMutex) Lock() { rw.perfrunLock(); perfrunHook(2, unsafe.Pointer(rw)) }

//go:noinline
func (rw *RWMutex) TryLock() bool {
	if !rw.perfrunTryLock() {
		return false
	}
	perfrunHook(2, unsafe.Pointer(rw))
	return true
}

//go:noinline
func (rw *RWMutex) Unlock() { perfrunHook(3, unsafe.Pointer(rw)); rw.perfrunUnlock() }

//go:noinline
func (rw *RWMutex) RLock() { rw.perfrunRLock(); perfrunHook(4, unsafe.Pointer(rw)) }

//go:noinline
func (rw *RWMutex) TryRLock() bool {
	if !rw.perfrunTryRLock() {
		return false
	}
	perfrunHook(4, unsafe.Pointer(rw))
	return true
}

//go:noinline
func (rw *RWMutex) RUnlock() { perfrunHook(5, unsafe.Pointer(rw)); rw.perfrunRUnlock() }
`
