// Package selfsource finds the source this very program was built from:
// the folder of its main package as the binary recorded it. A build
// without -trimpath records its files' paths (go run's does), so a
// program run from a clone knows its clone even when it runs elsewhere,
// and never mistakes the working folder for its source.
package selfsource

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/perfrun/perfrun/internal/git"
)

// MainDir is the folder of this program's main package, where the binary
// recorded it and it is still there; "" otherwise (a -trimpath build, a
// test binary, a folder since removed, a call off the main goroutine's
// stack).
func MainDir() string {
	pcs := make([]uintptr, 512)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		if f.Function == "main.main" {
			if !filepath.IsAbs(f.File) {
				return ""
			}
			dir := filepath.Dir(f.File)
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return ""
			}
			return dir
		}
		if !more {
			return ""
		}
	}
}

// Stamp is the git revision Go stamped into this binary (go build in a
// checkout) and whether its tree had changes; "" where it has none (go
// run, -buildvcs=false).
func Stamp() (rev string, modified bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return rev, modified
}

// Checkout is the commit dir's checkout is at and whether its tracked
// files have changes; ok is false where dir is no git checkout.
func Checkout(dir string) (head string, dirty, ok bool) {
	out, err := git.Output(context.Background(), dir, "rev-parse", "HEAD")
	if err != nil {
		return "", false, false
	}
	st, err := git.Output(context.Background(), dir, "status", "--porcelain", "--untracked-files=no")
	return strings.TrimSpace(string(out)), err == nil && len(strings.TrimSpace(string(st))) > 0, true
}

// GitRevision is Checkout's commit, with "-dirty" where the tracked files
// have changes; "" where dir is no git checkout.
func GitRevision(dir string) string {
	head, dirty, ok := Checkout(dir)
	if !ok {
		return ""
	}
	if dirty {
		head += "-dirty"
	}
	return head
}
