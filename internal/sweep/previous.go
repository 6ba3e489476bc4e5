package sweep

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/records"
)

// A run says what changed since the previous run of the same settings, as
// criterion does: the results file it is about to replace is kept beside
// it (NAME-previous.txt) and gated against the new one with the file
// gate's rule, the machine's moves included. Two processes minutes apart
// differ by more than their rounds show, and the gate says so: most often
// the answer is INCONCLUSIVE with what the machine did, never a
// REGRESSION the machine made.

// previousRun is the results file a run replaces: its set, and where it
// was kept.
type previousRun struct {
	set  *records.Set
	kept string
}

// keepPrevious reads the results at path, if there are any to replace,
// and keeps them beside it (NAME-previous.txt); nil if there are none.
func keepPrevious(path string) (*previousRun, error) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, nil
	}
	data, err := regularfile.ReadFile(path, records.MaxFileBytes)
	if err != nil {
		return nil, nil
	}
	set, err := records.Read(bytes.NewReader(data), path, "previous")
	if err != nil || len(set.Cells()) == 0 {
		return nil, nil
	}
	kept := previousPath(path)
	if err := regularfile.Write(kept, data); err != nil {
		return nil, err
	}
	return &previousRun{set: set, kept: kept}, nil
}

// previousPath is where a run writing results keeps the file it replaces.
func previousPath(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + "-previous.txt"
}

// sincePrevious gates the previous run against this one and prints the
// verdict, the machine's notes and one line per gated cell.
func sincePrevious(w io.Writer, prev *previousRun, cur *records.Set, results string) {
	old, kept := prev.set, prev.kept
	label, file := cur.Label, cur.File
	old.Label, cur.Label = "previous", "this run"
	old.File, cur.File = kept, results // what an error names them by
	defer func() { cur.Label, cur.File = label, file }()
	date := old.Config("date")
	// A run of fewer cells than the previous one is a choice, not a loss.
	th := compare.DefaultThresholds
	th.AllowMissing = true
	rep, err := compare.Gate(old, cur, th) // refuses runs of other settings (CheckConfig)
	if err != nil {
		fmt.Fprintf(w, "perfrun: not compared with the previous run (%s, kept in %s): %v\n", date, kept, err)
		return
	}
	fmt.Fprintf(w, "perfrun: since the previous run (%s, kept in %s): %s\n", date, kept, rep.Verdict)
	for _, n := range rep.Warnings {
		fmt.Fprintf(w, "  %s\n", n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range rep.Cells {
		if c.Unit != compare.DefaultThresholds.Metric || c.Verdict == compare.NotGated {
			continue
		}
		change := "—"
		if c.Lo > 0 && c.Hi > 0 {
			change = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1))
		}
		why := ""
		if c.Vetoed == compare.VetoMachine {
			why = "the machine moved"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Verdict, c.Name, change, why)
	}
	tw.Flush()
	fmt.Fprintf(w, "  each cell's reason: perfrun gate %s %s\n", kept, results)
}
