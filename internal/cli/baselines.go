package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/records"
)

var cmdBaselines = &command{
	maxArgs: 0, name: "baselines", args: "", short: "list the named baselines (run -save-baseline NAME, gate -baseline NAME)",
	long: `Baselines lists the results saved under a name with "run -save-baseline
NAME": when each was measured, on what, by which command. "gate -baseline
NAME NEW" gates NEW against one. They live in one folder, $PERFRUN_BASELINES
or perfrun-out/baselines, one results file each (NAME.txt) with its
configuration.`,
}

func init() { cmdBaselines.define = baselinesFlags }

// baselinesDir is the folder of named baselines.
func baselinesDir() string {
	if d := os.Getenv("PERFRUN_BASELINES"); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(defaultOutput), "baselines")
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
			return "", usageError("no baseline %q: none saved in %s (run -save-baseline NAME)", name, baselinesDir())
		}
		return "", usageError("no baseline %q in %s (have %s)", name, baselinesDir(), strings.Join(have, ", "))
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
			fmt.Fprintf(o.stderr, "perfrun: baselines: none in %s (run -save-baseline NAME)\n", baselinesDir())
			return nil
		}
		tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tDATE\tCELLS\tMACHINE\tCOMMAND")
		for _, name := range names {
			s, err := records.ReadFile(filepath.Join(baselinesDir(), name+".txt"))
			if err != nil {
				fmt.Fprintf(tw, "%s\t(unreadable: %v)\t\t\t\n", name, err)
				continue
			}
			machine := s.Config("machine")
			if machine == "" {
				machine = s.Config("cpu") + " ×" + s.Config("cores")
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", name, s.Config("date"), len(s.Cells()), machine, s.Config("command"))
		}
		fmt.Fprintf(tw, "\n(in %s)\n", baselinesDir())
		return tw.Flush()
	}
}
