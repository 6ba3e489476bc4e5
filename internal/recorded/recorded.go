// Package recorded unpacks the recorded runs tests replay — A/A campaigns,
// journeys of results files — from a compressed tar in a package's
// testdata into a temporary folder: kept compressed, they stay out of the
// weight of perfrun's module download, and every test reads its own
// package's testdata.
package recorded

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Unpack extracts the .tar.gz at archive into a new folder under dir and
// returns that folder. Only regular files and folders are made, and only
// inside it.
func Unpack(archive, dir string) (string, error) {
	f, err := os.Open(archive)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", archive, err)
	}
	out, err := os.MkdirTemp(dir, "recorded-")
	if err != nil {
		return "", err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", archive, err)
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) || strings.Contains(h.Name, "\\") {
			return "", fmt.Errorf("%s: %q is not a path inside it", archive, h.Name)
		}
		target := filepath.Join(out, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return "", err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return "", err
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return "", err
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				return "", err
			}
		}
	}
}
