// Package historycmd is perfrun history's subcommands — add, changes,
// plot, report, info, copy and backfill — each a value carrying its flags
// and help, as cmd/go's mod subcommands are: they open a history, call the
// history package and print what it found. A perfrun built without the
// history's databases runs them in a build of itself with them.
package historycmd

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/changepoint"
	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

var cmdHistory = &subcommand.Command{
	Name: "history", Args: "add|changes|plot|report|info|copy|backfill [flags] [arguments]", Short: "keep results across commits and find the steps in them",
	Long: `History keeps results across commits in one SQLite file, or on a
PostgreSQL server for a fleet of runners, and finds where a series — one
cell in one unit on one machine — stepped up or down.

The history is -db, else $PERFRUN_HISTORY, else perfrun-out/history.db: a
SQLite file, or a postgres:// URL (its tables in the connection's schema;
many runners may add at once; a role that may only SELECT is enough for
changes, plot, report and info). Series from different machines are never
mixed. "perfrun history COMMAND -h" prints a command's flags.

A perfrun built without the history's databases (go run ./cmd/perfrun
builds it so: the main job needs none) builds one with them for these
commands (-tags perfrun_history), once.`,
}

// historyCommands are history's commands, in the order help lists them.
var historyCommands = []*subcommand.Command{
	{MaxArgs: -1, Name: "history add", Args: "[-commit REV] [-commit-time TIME] [-machine LABEL] FILE...", Short: "store results files",
		Long: `Add stores results files: perfrun's, or any go test -bench output ("-" reads
standard input). Each file is one transaction; a file whose bytes were
added before is skipped. The commit is the file's commit: or perfrun: line
unless -commit gives it; its time comes from git (-git DIR), else from the
file's date: line, unless -commit-time gives it. The machine is the file's
machine: line (run -label machine=X), else its cpu and cores, unless
-machine gives it. Samples a run set aside are not stored.`},
	{MaxArgs: 0, Name: "history changes", Args: "[-record] [-fail]", Short: "find the steps in every series",
		Long: `Changes finds the steps in every series with E-divisive means and a
permutation test, and prints each with its number (perfrun bisect -step N
narrows step N to its commit), the commits it lies between, its size with
a 95% interval, and its p-value.

A step that a control or floor cell of the same runs shares (the same way, at least half as large) is
noted as the machine's, and one that other machines' series of the cell
took over the same commits is said to be theirs too. A store cell is also
divided, commit by commit, by the control (else a floor) cell of the same
runs: a step only that ratio shows is one the machine's speed hid, shown
in the ratio (the machine's where the reference stepped there too). Steps not recorded
before are new; -record stores
them; -fail exits 1 when a new one is a regression of a store at no more
threads than cores (oversubscribed cells only time-slice). A step can be
found once -min-size commits follow it, in a series long enough for the
test to reach -alpha at all (11 commits at 0.01; the summary line says);
where no step passes, the three splits nearest to one are shown, and why.`},
	{MaxArgs: 0, Name: "history plot", Args: "[-o DIR]", Short: "draw every series over its commits",
		Long: "Plot draws every series over its commits (SVG and PNG), steps marked."},
	{MaxArgs: 0, Name: "history report", Args: "[-o DIR]", Short: "write the steps and their plots as a report",
		Long: `Report writes report.md and a self-contained report.html: the steps and the
plots of the series that have them.`},
	{MaxArgs: 0, Name: "history info", Args: "", Short: "say what the history holds",
		Long: "Info says what the history holds, machine by machine."},
	{MaxArgs: 2, Name: "history copy", Args: "SRC DST", Short: "copy a history into another (SQLite file or server)",
		Long: `Copy adds every results file of the history SRC to the history DST, each
in one transaction, with the steps SRC recorded: a branch's SQLite file onto
a server, or a server's history back into a file. Files DST holds already
are skipped, so a copy interrupted can be run again. Either side is a
SQLite file or a postgres:// URL.`},
	{MaxArgs: -1, Name: "history backfill", Args: "[-every K] [-reference REV] RANGE [-- RUN FLAGS]", Short: "measure a range of past commits into the history",
		Long: `Backfill builds perfrun (or -pkg) at each commit of a revision range
(git rev-list RANGE, oldest first; -every K takes every K-th and the last)
in a worktree, runs perfrun run there with the flags after --, and adds
each run to the history as it ends, under that commit and its time. With
-reference REV, REV is measured after every commit too and filed under the
machine label with +reference: commits are measured in order, so a slow
stretch of the machine looks like a step; the reference series shows
when it was the machine. Ctrl-C keeps the commits already added.`},
}

// runCommand is perfrun run, whose flags backfill passes on to it and
// checks before anything is built.
var runCommand *subcommand.Command

// New is the history command; run is perfrun run, whose flags backfill
// checks before it builds anything.
func New(run *subcommand.Command) *subcommand.Command {
	runCommand = run
	return cmdHistory
}

// Commands are history's subcommands, in the order help lists them.
func Commands() []*subcommand.Command { return historyCommands }

func init() {
	cmdHistory.Run = runHistory
	// Set here, not in the literal: a command's flags refer back to
	// historyCommands (an initialization cycle in a literal).
	defines := map[string]func(*flag.FlagSet) subcommand.RunFunc{"history add": historyAdd, "history changes": historyChanges,
		"history plot": historyPlot, "history report": historyReport, "history info": historyInfo,
		"history copy": historyCopy, "history backfill": historyBackfill}
	for _, c := range historyCommands {
		c.Define = defines[c.Name]
	}
	var b strings.Builder
	b.WriteString(cmdHistory.Long + "\n\nCommands:\n")
	for _, c := range historyCommands {
		fmt.Fprintf(&b, "\n  %-20s %s", strings.TrimPrefix(c.Name, "history "), c.Short)
	}
	cmdHistory.Long = strings.TrimSuffix(b.String(), "\n")
}

// historyPath is the default history database.
func historyPath() string {
	if p := os.Getenv("PERFRUN_HISTORY"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(sweep.DefaultOutput), "history.db")
}

func runHistory(ctx context.Context, o *subcommand.Streams, args []string) error {
	if len(args) == 0 {
		cmdHistory.Help(o.Stderr, flag.NewFlagSet("history", flag.ContinueOnError), false)
		return subcommand.UsageError("want a history command: %s", historyNames())
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		cmdHistory.Help(o.Stdout, flag.NewFlagSet("history", flag.ContinueOnError), false)
		return nil
	}
	for _, c := range historyCommands {
		if c.Name == "history "+args[0] {
			if !history.Ready() && !helpAsked(args[1:]) {
				return historyElsewhere(ctx, o, args)
			}
			return named(args[0], c.Execute(ctx, o, args[1:]))
		}
	}
	return subcommand.UsageError("unknown history command %q: want %s", args[0], historyNames())
}

// named prefixes a history command's error with the command's name
// ("perfrun: history: add: …"), its exit code kept.
func named(sub string, err error) error {
	var e *subcommand.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e) && e.Err == nil:
		return err // help, or a verdict's code: nothing to print
	case errors.As(err, &e):
		return &subcommand.ExitError{Code: e.Code, Err: fmt.Errorf("%s: %w", sub, e.Err)}
	}
	return fmt.Errorf("%s: %w", sub, err)
}

// historyNames lists history's commands as a sentence does.
func historyNames() string {
	names := make([]string, len(historyCommands))
	for i, c := range historyCommands {
		names[i] = strings.TrimPrefix(c.Name, "history ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// DBFlag is every history command's -db; its default, shown by -h, is
// printed without a password.
func DBFlag(fs *flag.FlagSet) *string {
	f := &locationFlag{historyPath()}
	fs.Var(f, "db", "the history: a SQLite file or a postgres:// URL")
	return &f.loc
}

// locationFlag is a history's location that prints without its password.
type locationFlag struct{ loc string }

func (f *locationFlag) String() string {
	if f == nil {
		return ""
	}
	return history.Printable(f.loc)
}

func (f *locationFlag) Set(s string) error { f.loc = s; return nil }

// openHistory opens the database; a newer or foreign one is the user's
// to sort out.
func openHistory(ctx context.Context, path string) (*history.DB, error) {
	return historyInput(history.Open(ctx, path))
}

// historyInput makes a history file that is not one perfrun can use —
// another program's, damaged, from a newer or older perfrun — bad input
// (exit 2).
func historyInput(h *history.DB, err error) (*history.DB, error) {
	for _, e := range []error{history.ErrNewer, history.ErrNotHistory, history.ErrDamaged, history.ErrOlder, history.ErrLocation} {
		if errors.Is(err, e) {
			return nil, subcommand.AsUsage(err)
		}
	}
	return h, err
}

func historyAdd(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	commit := fs.String("commit", "", "the commit the results measured (default: the file's commit: or perfrun: line)")
	when := fs.String("commit-time", "", "when that commit was made, RFC 3339 or YYYY-MM-DD (default: git's answer, else the file's date: line)")
	machine := fs.String("machine", "", "the machine label (default: the file's machine: line, else its cpu and cores)")
	gitDir := fs.String("git", ".", "the repository git asks for commits' full names and times")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if fs.NArg() == 0 {
			return subcommand.UsageError("history add: want results files (or - for standard input)")
		}
		opts := history.AddOptions{Commit: *commit, Machine: *machine, CommitTimeOf: gitCommitTime(*gitDir), ResolveCommit: gitResolve(*gitDir)}
		if *when != "" {
			t, err := parseTime(*when)
			if err != nil {
				return subcommand.UsageError("bad -commit-time %q: want RFC 3339 (2026-11-30T12:00:00Z) or a date (2026-11-30)", *when)
			}
			opts.CommitTime = t
		}
		if err := machineLabel(*machine); err != nil {
			return err
		}
		// Read every file before the database is touched: a missing file is
		// a usage error, not half a history.
		type input struct {
			name string
			data []byte
		}
		var inputs []input
		for _, name := range fs.Args() {
			data, name, err := regularfile.ReadInput(name)
			if err != nil {
				return subcommand.AsUsage(err)
			}
			inputs = append(inputs, input{name, data})
		}
		ctx, stop := terminal.Interruptible(ctx)
		defer stop()
		h, err := openHistory(ctx, *db)
		if err != nil {
			return err
		}
		defer h.Close()
		added, skipped := 0, 0
		for _, in := range inputs {
			a, err := h.Add(ctx, in.name, in.data, opts)
			if errors.Is(err, context.Canceled) {
				return fmt.Errorf("interrupted: %d files added, %s and the rest not (each file is all or nothing)", added, in.name)
			}
			if isBadInput(err) {
				return subcommand.AsUsage(fmt.Errorf("%v (nothing of %s was added; %d files before it were)", err, in.name, added))
			}
			if err != nil {
				return fmt.Errorf("%v (nothing of %s was added; %d files before it were)", err, in.name, added)
			}
			for _, w := range a.Warnings {
				fmt.Fprintf(o.Stderr, "perfrun: history add: %v\n", w)
			}
			if a.Duplicate {
				skipped++
				fmt.Fprintf(o.Stdout, "%s: already in the history (same bytes); nothing added%s\n", in.name, filedElsewhere(*commit, a.Commits))
				continue
			}
			added++
			commits := make([]string, len(a.Commits))
			for i, c := range a.Commits {
				commits[i] = history.ShortCommit(c)
			}
			aside := ""
			if a.Aside > 0 {
				aside = fmt.Sprintf("; %d results set aside by the run not stored", a.Aside)
			}
			fmt.Fprintf(o.Stdout, "%s: %d values of %d run(s), commit %s%s\n", in.name, a.Samples, a.Runs, strings.Join(commits, ", "), aside)
		}
		fmt.Fprintf(o.Stdout, "history %s: %d files added, %d already there\n", h.Path, added, skipped)
		return nil
	}
}

func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse(time.DateOnly, s)
}

// gitResolve asks git in dir for a commit's full object name.
func gitResolve(dir string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		full, err := git.Commit(context.Background(), dir, name)
		return full, err == nil
	}
}

// gitCommitTime asks git in dir when a commit was made.
func gitCommitTime(dir string) func(string) (time.Time, bool) {
	return func(commit string) (time.Time, bool) {
		out, err := git.Output(context.Background(), dir, "log", "-1", "--format=%cI", "--end-of-options", commit, "--")
		if err != nil {
			return time.Time{}, false
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
		return t, err == nil
	}
}

// seriesFlags are the flags choosing series and tuning the search.
type seriesFlags struct {
	machine, cell, units *string
	alpha, minShift      *float64
	permutations, minSz  *int
	repo                 *string
}

const defaultUnits = "ns/op,B/op,allocs/op,instructions/op"

func addSeriesFlags(fs *flag.FlagSet, units string) *seriesFlags {
	f := &seriesFlags{
		machine:      fs.String("machine", "", "only machines whose label matches this regular expression"),
		cell:         fs.String("cell", "", "only cells whose name matches this regular expression"),
		units:        fs.String("unit", units, `units, comma-separated, or "all"`),
		repo:         fs.String("repo", ".", "the git repository whose history orders commits that share a commit time (a rebase makes them)"),
		alpha:        new(float64),
		permutations: new(int),
		minSz:        new(int),
	}
	flagvalue.BoundedVar(fs, f.permutations, "permutations", 199, 19, changepoint.MaxPermutations, "reorderings per permutation test")
	flagvalue.BoundedVar(fs, f.minSz, "min-size", 3, 2, 1000, "fewest commits between steps (a step shows once this many follow it)")
	flagvalue.FractionVar(fs, f.alpha, "alpha", 0.01, "significance level of each step's permutation test")
	f.minShift = new(float64)
	flagvalue.FractionVar(fs, f.minShift, "min-shift", 0.02, "report no step smaller than this share of the level before it (each series is tested at -alpha: many series give a few small steps of noise)")
	return f
}

func (f *seriesFlags) filter() (history.Filter, error) {
	var out history.Filter
	for _, r := range []struct {
		expr string
		dst  **regexp.Regexp
		flag string
	}{{*f.machine, &out.Machine, "-machine"}, {*f.cell, &out.Cell, "-cell"}} {
		if r.expr == "" {
			continue
		}
		re, err := regexp.Compile(r.expr)
		if err != nil {
			return out, subcommand.UsageError("bad %s: %v", r.flag, err)
		}
		*r.dst = re
	}
	if *f.units != "all" {
		for _, u := range strings.Split(*f.units, ",") {
			if u = strings.TrimSpace(u); u != "" {
				out.Units = append(out.Units, u)
			}
		}
	}
	out.Order = commitOrder(*f.repo)
	return out, nil
}

// commitOrder orders commits as the repository's history does (git
// rev-list --topo-order, every ref): the order of commits that share a
// commit time. git runs the first time two such commits are compared,
// never where none are; where repo is no git repository it orders none.
func commitOrder(repo string) func(a, b string) int {
	at := sync.OnceValue(func() map[string]int {
		out, err := git.Output(context.Background(), repo, "rev-list", "--topo-order", "--reverse", "--all")
		m := make(map[string]int)
		if err == nil {
			for i, c := range strings.Fields(string(out)) {
				m[c] = i + 1
			}
		}
		return m
	})
	return func(a, b string) int {
		i, j := at()[a], at()[b]
		if i == 0 || j == 0 {
			return 0
		}
		return cmp.Compare(i, j)
	}
}

// tiesWarning says how many commits stand in hash order because they
// share a commit time and the repository did not order them; "" where
// none do.
func tiesWarning(series []*history.Series, repo string) string {
	n := 0
	for _, s := range series {
		n = max(n, s.Ties)
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d commits share a commit time with the one before (a rebase makes them) and %s does not order them: they stand in hash order, which may not be the history's, and a step across them may be misplaced (-repo names the repository that orders them)", n, repo)
}

func (f *seriesFlags) options() (changepoint.Options, error) {
	switch {
	case *f.alpha <= 0 || *f.alpha >= 1:
		return changepoint.Options{}, subcommand.UsageError("bad -alpha %g: want a level between 0 and 1, such as 0.01", *f.alpha)
	case *f.minShift < 0 || *f.minShift >= 1:
		return changepoint.Options{}, subcommand.UsageError("bad -min-shift %g: want a share of the level from 0 (every step) to below 1, such as 2%%", *f.minShift)
	case 1/float64(*f.permutations+1) > *f.alpha:
		return changepoint.Options{}, subcommand.UsageError("-permutations %d cannot show p ≤ %g: want at least %d", *f.permutations, *f.alpha, int(1 / *f.alpha))
	}
	return changepoint.Options{Alpha: *f.alpha, Permutations: *f.permutations, MinSize: *f.minSz}, nil
}

func (f *seriesFlags) method() string {
	return fmt.Sprintf("Steps found by E-divisive means, each kept when its permutation test (%d reorderings) gives p ≤ %g; at least %d commits between steps; sizes are Hodges–Lehmann shifts with 95%% intervals.",
		*f.permutations, *f.alpha, *f.minSz)
}

// openSteps opens an existing history and searches the series the flags
// choose (history.DB.Search); the caller closes the history.
func openSteps(ctx context.Context, stderr io.Writer, path string, f *seriesFlags, write bool) (*history.DB, history.Search, error) {
	filter, err := f.filter()
	if err != nil {
		return nil, history.Search{}, err
	}
	opts, err := f.options()
	if err != nil {
		return nil, history.Search{}, err
	}
	h, err := openExisting(ctx, path, write)
	if err != nil {
		return nil, history.Search{}, err
	}
	s, err := h.Search(ctx, filter, opts, *f.minShift)
	if err != nil {
		h.Close()
		return nil, history.Search{}, err
	}
	if ties := tiesWarning(s.Series, *f.repo); ties != "" {
		fmt.Fprintf(stderr, "perfrun: history: %s\n", ties)
	}
	return h, s, nil
}

// stepHeader and stepColumns are a step's columns as history changes
// prints them, after its number and mark.
const stepHeader = "step\tcell\tunit\tmachine\tbetween\tsize (95%% interval)\tlevels\tp\tnote\n"

func stepColumns(st history.Step) string {
	r := report.NewStepRow(st)
	return strings.Join([]string{r.Kind, r.Cell, r.Unit, r.Machine, r.Commits, r.Size, r.Levels, r.P, r.Note}, "\t") + "\n"
}

// printNearest prints a search's nearest splits as history changes
// prints steps.
func printNearest(ctx context.Context, o *subcommand.Streams, s history.Search) error {
	near, why, err := s.Nearest(ctx)
	if err != nil || len(near) == 0 {
		return err
	}
	fmt.Fprintln(o.Stdout, why)
	tw := tabwriter.NewWriter(o.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\t"+stepHeader)
	for _, st := range near {
		fmt.Fprint(tw, "\t"+stepColumns(st))
	}
	return tw.Flush()
}

func historyChanges(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	sf := addSeriesFlags(fs, defaultUnits)
	record := fs.Bool("record", false, "store the new steps, so the next search knows them")
	fail := fs.Bool("fail", false, "exit 1 when a new step is a regression of a store that no control or floor cell shares, at no more threads than cores")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		ctx, stop := terminal.Interruptible(ctx)
		defer stop()
		h, found, err := openSteps(ctx, o.Stderr, *db, sf, *record)
		if err != nil {
			return err
		}
		defer h.Close()
		series, steps := found.Series, found.Steps
		if *record {
			if err := h.Record(ctx, steps, time.Now()); err != nil {
				return err
			}
		}
		newRegressions, fresh := 0, 0
		if len(steps) > 0 {
			tw := tabwriter.NewWriter(o.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "#\t\t"+stepHeader)
			for i, st := range steps {
				mark := ""
				if st.New {
					mark = "NEW"
					fresh++
					if st.Regression && st.Machine == "" && !st.Series.Oversubscribed() {
						newRegressions++
					}
				}
				fmt.Fprintf(tw, "%d\t%s\t%s", i+1, mark, stepColumns(st))
			}
			tw.Flush()
		}
		if len(steps) == 0 {
			if err := printNearest(ctx, o, found); err != nil {
				return err
			}
		}
		long, shortest := found.Testable()
		fmt.Fprintf(o.Stdout, "%d steps in %d series (%d long enough to show one at -alpha %g: %d commits or more); %d new, %d of them regressions of a store\n",
			len(steps), len(series), long, *sf.alpha, shortest, fresh, newRegressions)
		if *fail && newRegressions > 0 {
			fmt.Fprintf(o.Stderr, "perfrun: history changes: %d new regression step(s)\n", newRegressions)
			return &subcommand.ExitError{Code: subcommand.ExitRegression}
		}
		return nil
	}
}

// openExisting opens a history a command reads: one that is not there
// is not created, and unless write, nothing is written (it may be in a
// folder perfrun cannot write to).
func openExisting(ctx context.Context, path string, write bool) (*history.DB, error) {
	if err := history.CheckLocation(path); err != nil {
		return nil, subcommand.AsUsage(err)
	}
	if _, err := os.Lstat(path); err != nil && !history.IsServer(path) {
		return nil, subcommand.UsageError("no history at %s: add results with perfrun history add", history.Printable(path))
	}
	if write {
		return openHistory(ctx, path)
	}
	return historyInput(history.OpenRead(ctx, path))
}

func historyInfo(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		h, err := openExisting(ctx, *db, false)
		if err != nil {
			return err
		}
		defer h.Close()
		st, err := h.Stats(ctx)
		if err != nil {
			return err
		}
		v, _ := h.Version(ctx)
		fmt.Fprintf(o.Stdout, "history %s (schema %d)\n%d files, %d runs, %d commits, %d series, %d values\n",
			h.Path, v, st.Files, st.Runs, st.Commits, st.Series, st.Samples)
		if len(st.Fleet) == 0 {
			return nil
		}
		tw := tabwriter.NewWriter(o.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "machine\tseries\tcommits\tnewest commit's time\n")
		for _, m := range st.Fleet {
			// A machine's name is data: one line, whatever a file called it.
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", records.OneLine(m.Machine), m.Series, m.Commits, m.Last.Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	}
}

// filedElsewhere says, for a file added again under -commit, that its
// stored copy is filed under other commits, which stay as they are.
func filedElsewhere(commit string, stored []string) string {
	if commit == "" || len(stored) == 0 || slices.ContainsFunc(stored, func(c string) bool { return strings.HasPrefix(c, commit) }) {
		return ""
	}
	short := make([]string, len(stored))
	for i, c := range stored {
		short[i] = history.ShortCommit(c)
	}
	return fmt.Sprintf(" (it is filed under %s, not -commit %s: the stored copy differs in its commit and stays as it is)", strings.Join(short, ", "), commit)
}

// machineLabel refuses a -machine label that is not one line of
// printable text: it names series, plots and files on every output.
func machineLabel(m string) error {
	if records.OneLine(m) != m {
		return subcommand.UsageError("bad -machine %.80q: want one line of printable text, at most %d bytes", m, records.MaxConfigValue)
	}
	return nil
}

// isBadInput says whether a history error is the input's fault (exit 2):
// a file without results, commit or time, or a commit name that is not one.
func isBadInput(err error) bool {
	for _, e := range []error{history.ErrNoCommit, history.ErrBadCommit, history.ErrNoTime, history.ErrDirty, records.ErrNoResults} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// NthStep is the n-th step history changes prints (from 1), searched in
// the history at db with changes' defaults, commits that share a time
// ordered as repo orders them; the history's location comes with it.
func NthStep(ctx context.Context, db, repo string, n int) (history.Step, error) {
	sf := addSeriesFlags(flag.NewFlagSet("history changes", flag.ContinueOnError), defaultUnits)
	*sf.repo = repo
	h, found, err := openSteps(ctx, io.Discard, db, sf, false)
	if err != nil {
		return history.Step{}, err
	}
	defer h.Close()
	if n > len(found.Steps) {
		return history.Step{}, subcommand.UsageError("-step %d: history changes finds %d steps in %s", n, len(found.Steps), h.Path)
	}
	return found.Steps[n-1], nil
}
