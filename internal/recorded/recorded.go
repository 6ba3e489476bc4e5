// Package recorded unpacks the recorded runs tests replay — A/A campaigns,
// journeys of results files — from a compressed tar in the module's
// testdata into a temporary folder: kept compressed (bzip2, a quarter
// smaller than gzip for them), they weigh less in perfrun's module
// download, and no test reads outside the module. Runs more than one
// package replays (ab's A/A campaigns) are kept once, in this package's
// testdata (Path).
package recorded

import (
	"archive/tar"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Path is the archive name in this package's testdata: the recorded runs
// that more than one package's tests replay.
func Path(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", name)
}

// Unpack extracts the archives (.tar.gz or .tar.bz2) into one new folder
// under dir and returns that folder. Only regular files and folders are
// made, and only inside it.
func Unpack(dir string, archives ...string) (string, error) {
	out, err := os.MkdirTemp(dir, "recorded-")
	if err != nil {
		return "", err
	}
	for _, a := range archives {
		if err := unpack(a, out); err != nil {
			return "", err
		}
	}
	return out, nil
}

// unpack extracts one archive into out.
func unpack(archive, out string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	var zr io.Reader
	switch {
	case strings.HasSuffix(archive, ".tar.bz2"):
		zr = bzip2.NewReader(f)
	case strings.HasSuffix(archive, ".tar.gz"):
		if zr, err = gzip.NewReader(f); err != nil {
			return fmt.Errorf("%s: %w", archive, err)
		}
	default:
		return fmt.Errorf("%s: not a .tar.gz or a .tar.bz2", archive)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", archive, err)
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) || strings.Contains(h.Name, "\\") {
			return fmt.Errorf("%s: %q is not a path inside it", archive, h.Name)
		}
		target := filepath.Join(out, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				return err
			}
		}
	}
}
