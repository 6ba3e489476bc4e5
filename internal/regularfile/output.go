package regularfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckOutput checks, before any measuring, that path can be written: its
// directory exists (made first, with makeDir: a command's default folder)
// and path is not a directory.
func CheckOutput(path string, makeDir bool) error {
	dir := filepath.Dir(path)
	if makeDir {
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

// NotAnInput refuses an output path that names one of the inputs (the
// same file, by any path or link): writing it would destroy what was read
// (gate -json NEW, run -corpus c.pem -o c.pem, import -o F F). Inputs
// that are not files (standard input, "label=path" specs' labels) are
// matched by their path part.
func NotAnInput(out string, inputs ...string) error {
	if out == "" {
		return nil
	}
	oi, err := os.Stat(out)
	if err != nil {
		return nil // a new file is no input
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if _, path, ok := strings.Cut(in, "="); ok {
			if _, err := os.Stat(in); err != nil {
				in = path
			}
		}
		if ii, err := os.Stat(in); err == nil && os.SameFile(oi, ii) {
			return fmt.Errorf("output %s is the input %s: writing it would destroy what is read; write elsewhere", out, in)
		}
	}
	return nil
}

// CheckOutputs checks, before any work, where a command will write: a
// file (-json) and a report folder, each folder made as it is named, so
// -json out/v.json and -report out/r behave alike. A path that cannot be
// is the user's to fix, found before minutes of measuring.
func CheckOutputs(file, dir string) error {
	if file != "" {
		if err := CheckOutput(file, true); err != nil {
			return err
		}
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("report folder %s: %w", dir, err)
		}
	}
	return nil
}
