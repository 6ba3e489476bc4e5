// Package regularfile opens the files perfrun reads from its users — results,
// baselines, corpus caches, histories — only when they are regular files,
// and reads them with a bound: a FIFO would block the reader, a device
// (/dev/zero) would feed it until memory runs out, and a link to either
// looks like a file until it is read. It writes what perfrun gives them
// the same careful way (Write, WriteOwned): to a new file renamed into
// place, never through a link planted where it writes.
package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file longer than the reader's bound.
var ErrTooLarge = errors.New("larger than perfrun reads")

// ErrEmptyName is returned for an empty name: a message built on it would
// print nothing where the name goes ("open : no such file").
var ErrEmptyName = errors.New("an empty file name: want a file's path")

// Open opens name for reading if it is a regular file (after following
// links). The open itself does not wait on a FIFO.
func Open(name string) (*os.File, error) {
	if name == "" {
		return nil, ErrEmptyName
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return f, nil
}

// ReadFile reads the regular file name whole, refusing one of more than
// limit bytes.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, name, limit)
}

// Read reads r to its end, refusing more than limit bytes; name is for
// the error.
func Read(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (more than %d MiB)", ErrTooLarge, limit>>20)}
	}
	return data, nil
}

// Kind names a mode that is not a regular file's, for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
