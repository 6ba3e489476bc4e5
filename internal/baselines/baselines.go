// Package baselines keeps named baselines: a results file saved under a
// name (run -save-baseline NAME) with the build that measured it, so that
// gate -baseline NAME compares with it and ab -baseline NAME measures that
// build again beside a newer one. Two results files are two processes
// minutes apart, and on a shared host their drift is often larger than the
// threshold; a kept build is measured again window by window instead.
package baselines

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/records"
)

// ErrInput marks what the user is to fix: a bad name, a baseline not
// saved, a folder perfrun cannot write, a baseline without its build.
var ErrInput = errors.New("baselines")

// inputError is an ErrInput with its message.
func inputError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// Dir is the folder of named baselines: $PERFRUN_BASELINES, else
// DefaultDir under the working folder.
func Dir() string {
	if d := os.Getenv("PERFRUN_BASELINES"); d != "" {
		return d
	}
	return DefaultDir
}

// DefaultDir is where baselines live beside perfrun's other output
// (perfrun-out/).
const DefaultDir = "perfrun-out/baselines"

// Where names the baselines folder for a message: where it is,
// and how it was chosen — relative to the working folder unless
// $PERFRUN_BASELINES says otherwise.
func Where() string {
	dir := Dir()
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if os.Getenv("PERFRUN_BASELINES") != "" {
		return fmt.Sprintf("%s ($PERFRUN_BASELINES)", abs)
	}
	return fmt.Sprintf("%s (%s under the working folder; $PERFRUN_BASELINES names another)", abs, dir)
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckName refuses a name that is not a baseline's (ErrInput).
func CheckName(name string) error {
	if !validName.MatchString(name) {
		return inputError("bad baseline name %q: want up to 64 letters, digits, '.', '_' or '-', not starting with a punctuation mark", name)
	}
	return nil
}

// CheckDir makes the baselines folder and checks perfrun can
// write in it, before a run measures anything: a run of minutes must not
// end in "permission denied".
func CheckDir() error {
	dir := Dir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inputError("baselines folder %s: %v", dir, err)
	}
	f, err := os.CreateTemp(dir, ".perfrun-check-*")
	if err != nil {
		return inputError("baselines folder %s: cannot write there: %v", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// Save writes results under a name, replacing an older one, with write
// (the caller's safe writer).
func Save(name string, data []byte, write func(path string, data []byte) error) (string, error) {
	dir := Dir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".txt")
	return path, write(path, data)
}

// Path finds a saved baseline, or says which there are.
func Path(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	path := filepath.Join(Dir(), name+".txt")
	if _, err := os.Stat(path); err != nil {
		have := Names()
		if len(have) == 0 {
			return "", inputError("no baseline %q: none saved in %s (run -save-baseline NAME)", name, Where())
		}
		return "", inputError("no baseline %q in %s (have %s)", name, Where(), strings.Join(have, ", "))
	}
	return path, nil
}

// Names lists the saved baselines, reading the folder, not a glob of it: a '[' or '*' in
// $PERFRUN_BASELINES is a character of the path, not a pattern.
func Names() []string {
	entries, _ := os.ReadDir(Dir())
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok && e.Type().IsRegular() && validName.MatchString(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// A baseline keeps the build that measured it: NAME.build/ beside
// NAME.txt holds a copy of the running executable under its own name.
// Two results files are two processes minutes apart, and on a shared host
// the drift between them is often larger than the threshold
// (results/baseline-journey), which no statistic of the two files can take out.
// With the build kept, "ab -baseline NAME" measures it again beside a
// newer one, window by window, where a slow stretch lands on both.

// buildDir is the folder of a baseline's build.
func buildDir(name string) string {
	return filepath.Join(Dir(), name+".build")
}

// measuredName, in a baseline's build folder, holds the SHA-256 of the
// results that build measured: KeptBuild pairs a build only with those, so
// a save cut short (a full disk) or two saves at once never leave a build
// standing for results it did not measure.
const measuredName = "measured.sha256"

// SaveBuild copies the running executable into the baseline's build
// folder, replacing the one an earlier save kept, with the digest of the
// results it measured. An old build is removed first.
func SaveBuild(name string, results []byte) (string, error) {
	dir := buildDir(name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(Dir(), "."+name+".build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(tmp, filepath.Base(self))
	if err := copyExecutable(self, path); err != nil {
		return "", err
	}
	sum := sha256.Sum256(results)
	if err := os.WriteFile(filepath.Join(tmp, measuredName), []byte(hex.EncodeToString(sum[:])+"\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(self)), nil
}

func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// Build finds the build kept with a saved baseline, or says why
// there is none.
func Build(name string) (string, error) {
	if _, err := Path(name); err != nil {
		return "", err
	}
	if bin := KeptBuild(name); bin != "" {
		return bin, nil
	}
	return "", inputError("baseline %q in %s has no build kept with it (%s): it was saved by a perfrun from before baselines kept their builds, or copied without it; save it again with run -save-baseline %s", name, Where(), buildDir(name), name)
}

// KeptBuild is the executable in a baseline's build folder, or "" — also
// when the folder's digest is not that of the baseline's results: that
// build did not measure them.
func KeptBuild(name string) string {
	results, err1 := regularfile.ReadFile(filepath.Join(Dir(), name+".txt"), records.MaxFileBytes)
	measured, err2 := regularfile.ReadFile(filepath.Join(buildDir(name), measuredName), 1<<10)
	sum := sha256.Sum256(results)
	if err1 != nil || err2 != nil || strings.TrimSpace(string(measured)) != hex.EncodeToString(sum[:]) {
		return ""
	}
	entries, _ := os.ReadDir(buildDir(name))
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return filepath.Join(buildDir(name), e.Name())
		}
	}
	return ""
}

// SavedWhen is " (saved DATE)" from a baseline's results, or "".
func SavedWhen(name string) string {
	path, err := Path(name)
	if err != nil {
		return ""
	}
	s, err := records.ReadFile(path)
	if err != nil || s.Config("date") == "" {
		return ""
	}
	return " (saved " + s.Config("date") + ")"
}
