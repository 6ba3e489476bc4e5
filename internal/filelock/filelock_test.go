package filelock

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A lock held is refused to the next taker until it is released, and a
// waiting taker gives up when its context does.
func TestLockIsExclusive(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here: every lock is granted")
	}
	path := filepath.Join(t.TempDir(), "lock")
	unlock, ok, err := TryLock(path)
	if err != nil || !ok {
		t.Fatalf("first TryLock: ok %v, %v", ok, err)
	}
	if _, ok, err := TryLock(path); err != nil || ok {
		t.Fatalf("second TryLock while held: ok %v, %v; want refused", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock while held: %v, want the context's deadline", err)
	}
	unlock()
	again, err := Lock(context.Background(), path)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	again()
}
