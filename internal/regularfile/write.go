package regularfile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// The writing side: what perfrun writes for its users (results, reports,
// plots) is never seen half written and never follows a link planted
// where it writes.

// Write writes data to path so that no reader ever sees half a file
// and nothing planted at path is followed: to a new file beside it (mode
// 0644 less the umask), then renamed over it — a symlink at path is
// replaced, never written through. Only a path that is, or links to, a
// device or a pipe (such as /dev/stdout) is written directly: renaming
// would replace the device.
func Write(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return writeThrough(path, info, data)
	}
	return replace(path, data)
}

// WriteOwned writes a file whose name perfrun chose inside an output
// folder (a plot, a report page): whatever is at path — a symlink, a
// device, a pipe someone planted — is replaced, never written through.
func WriteOwned(path string, data []byte) error {
	if info, err := os.Lstat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	return replace(path, data)
}

// writeThrough writes into an existing device or pipe.
func writeThrough(path string, info os.FileInfo, data []byte) error {
	if info.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replace writes data to a new file beside path and renames it over path.
func replace(path string, data []byte) error {
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp"+hex.EncodeToString(suffix[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
