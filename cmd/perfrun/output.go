package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// defaultOutput is where run writes when -o is not given: one folder that
// .gitignore covers, so a run in a checkout leaves nothing to commit.
const defaultOutput = "perfrun-out/results.txt"

// checkOutput checks, before any measuring, that path can be written: its
// directory exists (the default one is created) and path is not a
// directory.
func checkOutput(path string) error {
	dir := filepath.Dir(path)
	if path == defaultOutput {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output %s: directory %s does not exist", path, dir)
	}
	if !info.IsDir() {
		return fmt.Errorf("output %s: %s is not a directory", path, dir)
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("output %s is a directory", path)
	}
	return nil
}

// writeFile writes data to path so that no reader ever sees half a file:
// to a new file beside it (mode 0644 less the umask), then renamed over
// it. A path that exists and is not a regular file (a device such as
// /dev/stdout, a pipe) is written directly: renaming would replace it.
func writeFile(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
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

// plotsDir is where plots of a results file go by default.
func plotsDir(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + "-plots"
}
