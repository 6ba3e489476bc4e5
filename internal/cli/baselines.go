package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/records"
)

var cmdBaselines = &command{
	maxArgs: 0, name: "baselines", args: "", short: "list the named baselines (run -save-baseline NAME, gate -baseline NAME, ab -baseline NAME)",
	long: `Baselines lists the results saved under a name with "run -save-baseline
NAME": when each was measured, on what, by which command. "gate -baseline
NAME NEW" gates NEW against one, and "ab -baseline NAME" measures the build
that saved it again, beside this perfrun, interleaved. They live in one
folder, $PERFRUN_BASELINES or perfrun-out/baselines: a results file each
(NAME.txt) with its configuration, and the build that measured it
(NAME.build/).`,
}

func init() { cmdBaselines.define = baselinesFlags }

// baselinesDir is the folder of named baselines.
func baselinesDir() string {
	if d := os.Getenv("PERFRUN_BASELINES"); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(defaultOutput), "baselines")
}

// baselinesWhere names the baselines folder for a message: where it is,
// and how it was chosen — relative to the working folder unless
// $PERFRUN_BASELINES says otherwise.
func baselinesWhere() string {
	dir := baselinesDir()
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if os.Getenv("PERFRUN_BASELINES") != "" {
		return fmt.Sprintf("%s ($PERFRUN_BASELINES)", abs)
	}
	return fmt.Sprintf("%s (%s under the working folder; $PERFRUN_BASELINES names another)", abs, dir)
}

var baselineName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

func checkBaselineName(name string) error {
	if !baselineName.MatchString(name) {
		return usageError("bad baseline name %q: want up to 64 letters, digits, '.', '_' or '-', not starting with a punctuation mark", name)
	}
	return nil
}

// checkBaselinesDir makes the baselines folder and checks perfrun can
// write in it, before a run measures anything: a run of minutes must not
// end in "permission denied".
func checkBaselinesDir() error {
	dir := baselinesDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageError("baselines folder %s: %v", dir, err)
	}
	f, err := os.CreateTemp(dir, ".perfrun-check-*")
	if err != nil {
		return usageError("baselines folder %s: cannot write there: %v", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// saveBaseline writes results under a name, replacing an older one.
func saveBaseline(name string, data []byte) (string, error) {
	dir := baselinesDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".txt")
	return path, writeOwned(path, data)
}

// baselinePath finds a saved baseline, or says which there are.
func baselinePath(name string) (string, error) {
	if err := checkBaselineName(name); err != nil {
		return "", err
	}
	path := filepath.Join(baselinesDir(), name+".txt")
	if _, err := os.Stat(path); err != nil {
		have := savedBaselines()
		if len(have) == 0 {
			return "", usageError("no baseline %q: none saved in %s (run -save-baseline NAME)", name, baselinesWhere())
		}
		return "", usageError("no baseline %q in %s (have %s)", name, baselinesWhere(), strings.Join(have, ", "))
	}
	return path, nil
}

// savedBaselines lists the folder, not a glob of it: a '[' or '*' in
// $PERFRUN_BASELINES is a character of the path, not a pattern.
func savedBaselines() []string {
	entries, _ := os.ReadDir(baselinesDir())
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok && e.Type().IsRegular() && baselineName.MatchString(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func baselinesFlags(*flag.FlagSet) runFunc {
	return func(_ context.Context, o *streams, args []string) error {
		names := savedBaselines()
		if len(names) == 0 {
			fmt.Fprintf(o.stderr, "perfrun: baselines: none in %s (run -save-baseline NAME)\n", baselinesWhere())
			return nil
		}
		tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tDATE\tCELLS\tBUILD\tMACHINE\tCOMMAND")
		for _, name := range names {
			s, err := records.ReadFile(filepath.Join(baselinesDir(), name+".txt"))
			if err != nil {
				fmt.Fprintf(tw, "%s\t(unreadable: %v)\t\t\t\t\n", name, err)
				continue
			}
			machine := s.Config("machine")
			if machine == "" {
				machine = s.Config("cpu") + " ×" + s.Config("cores")
			}
			build := "-"
			if keptBuild(name) != "" {
				build = "kept"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", name, s.Config("date"), len(s.Cells()), build, machine, s.Config("command"))
		}
		fmt.Fprintf(tw, "\n(in %s)\n", baselinesWhere())
		return tw.Flush()
	}
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
	return filepath.Join(baselinesDir(), name+".build")
}

// measuredName, in a baseline's build folder, holds the SHA-256 of the
// results that build measured: keptBuild pairs a build only with those, so
// a save cut short (a full disk) or two saves at once never leave a build
// standing for results it did not measure.
const measuredName = "measured.sha256"

// saveBuild copies the running executable into the baseline's build
// folder, replacing the one an earlier save kept, with the digest of the
// results it measured. An old build is removed first.
func saveBuild(name string, results []byte) (string, error) {
	dir := buildDir(name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(baselinesDir(), "."+name+".build-")
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

// baselineBuild finds the build kept with a saved baseline, or says why
// there is none.
func baselineBuild(name string) (string, error) {
	if _, err := baselinePath(name); err != nil {
		return "", err
	}
	if bin := keptBuild(name); bin != "" {
		return bin, nil
	}
	return "", usageError("baseline %q in %s has no build kept with it (%s): it was saved by a perfrun from before baselines kept their builds, or copied without it; save it again with run -save-baseline %s", name, baselinesWhere(), buildDir(name), name)
}

// keptBuild is the executable in a baseline's build folder, or "" — also
// when the folder's digest is not that of the baseline's results: that
// build did not measure them.
func keptBuild(name string) string {
	results, err1 := regularfile.ReadFile(filepath.Join(baselinesDir(), name+".txt"), records.MaxFileBytes)
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

// savedWhen is " (saved DATE)" from a baseline's results, or "".
func savedWhen(name string) string {
	path, err := baselinePath(name)
	if err != nil {
		return ""
	}
	s, err := records.ReadFile(path)
	if err != nil || s.Config("date") == "" {
		return ""
	}
	return " (saved " + s.Config("date") + ")"
}
