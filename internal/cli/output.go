package cli

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

// notAnInput refuses an output path that names one of the inputs (the
// same file, by any path or link): writing it would destroy what was read
// (gate -json NEW, run -corpus c.pem -o c.pem, import -o F F). Inputs
// that are not files (standard input, "label=path" specs' labels) are
// matched by their path part.
func notAnInput(out string, inputs ...string) error {
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
			return usageError("output %s is the input %s: writing it would destroy what is read; write elsewhere", out, in)
		}
	}
	return nil
}

// writeFile writes data to path so that no reader ever sees half a file
// and nothing planted at path is followed: to a new file beside it (mode
// 0644 less the umask), then renamed over it — a symlink at path is
// replaced, never written through. Only a path that is, or links to, a
// device or a pipe (such as /dev/stdout) is written directly: renaming
// would replace the device.
func writeFile(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return writeThrough(path, info, data)
	}
	return replace(path, data)
}

// writeOwned writes a file whose name perfrun chose inside an output
// folder (a plot, a report page): whatever is at path — a symlink, a
// device, a pipe someone planted — is replaced, never written through.
func writeOwned(path string, data []byte) error {
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

// plotsDir is where plots of a results file go by default.
func plotsDir(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + "-plots"
}
