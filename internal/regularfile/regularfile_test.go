package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRefusesWhatIsNoFile: a device, a link to one, a FIFO (which must not
// block the open) and a folder are refused; a file over the bound too.
func TestRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/dev/zero", link, fifo, dir} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(name, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadFile(%s) = %v, want ErrNotRegular", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", name)
		}
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile(big) = %v, want ErrTooLarge", err)
	}
	if data, err := ReadFile(big, 2<<20); err != nil || len(data) != 2<<20 {
		t.Errorf("ReadFile(big) at its size: %d bytes, %v", len(data), err)
	}
}
