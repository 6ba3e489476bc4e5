// Package sweep is perfrun run's procedure, the main job's: every chosen
// cell measured in shuffled rounds, counted where asked, and written out —
// the results file (the previous one kept beside it and gated against),
// the plots, a baseline, the tables and the summary. The command line
// parses run's flags into a Sweep and runs it, as it does a campaign for
// ab; the cells a command chooses are planned here for arm and ab too.
package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/cellops"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/summary"
	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Sweep is one run: the cells chosen by name, the harness's options, and
// what to write. The command line fills it from run's flags.
type Sweep struct {
	// Impl, Workload and Threads are the -impl, -workload and -threads
	// lists; Params the -param sweeps, Match the cells kept by name, and
	// Commands the foreign commands measured as cells.
	Impl, Workload, Threads string
	Params                  []string
	Match                   string
	Commands                []*foreign.Command
	// Corpus is a PEM bundle or folder to load ("" for a generated one);
	// Strict refuses one with bad blocks; Seed makes a generated one.
	Corpus string
	Strict bool
	Seed   uint64
	// Options are the harness's; the corpus and progress are set here.
	Options harness.Options
	// Labels are extra configuration lines; Quarantine false keeps the
	// samples the machine disturbed, and the file says so.
	Labels     []workloads.KV
	Quarantine bool
	// Instructions and Locks count the 1-thread cells under callgrind
	// after the windows; Predict > 0 says what the counts predict at
	// that many threads (and counts what it needs).
	Instructions, Locks bool
	Predict             int
	// Out is the results file ("" for none), Plots their folder ("" beside
	// Out, "none" for none), Format what is printed (a Printers key),
	// SaveAs a baseline's name ("" for none).
	Out, Plots, Format, SaveAs string
	Quiet                      bool     // no progress, no summary
	Args                       []string // run's arguments, for the record
}

// Check refuses, before anything is measured, cells that cannot be
// planned and outputs that cannot be written: each is a usage error.
func (s *Sweep) Check() error {
	if _, err := Plan(s.Impl, s.Workload, s.Threads, s.Params, s.Commands...); err != nil {
		return subcommand.AsUsage(err)
	}
	if _, ok := Printers[s.Format]; !ok {
		return subcommand.UsageError("unknown format %q (have table, benchfmt, jmh, csv, json)", s.Format)
	}
	if s.Predict > 0 && s.Format != "table" {
		return subcommand.UsageError("-predict prints beside the tables: it needs -format table (the default), not %s", s.Format)
	}
	if s.Out != "" {
		if err := regularfile.CheckOutput(s.Out, s.Out == DefaultOutput); err != nil {
			return subcommand.AsUsage(err)
		}
		if err := regularfile.NotAnInput(s.Out, s.Corpus); err != nil {
			return subcommand.AsUsage(err)
		}
		// The previous results are kept beside the new ones: a folder
		// there would lose the run after it was measured.
		if info, err := os.Stat(previousPath(s.Out)); err == nil && !info.Mode().IsRegular() {
			return subcommand.UsageError("%s, where this run keeps the previous results, is not a file: move it, or give another -o", previousPath(s.Out))
		}
	}
	if s.SaveAs != "" {
		if err := baselines.CheckName(s.SaveAs); err != nil {
			return err
		}
		return baselines.CheckDir()
	}
	return nil
}

// Run measures the cells and writes what the sweep asks for. A count
// that fails costs the count, never the measurements: the results are
// written first, then the failure returned.
func (s *Sweep) Run(ctx context.Context, o *subcommand.Streams) error {
	if s.counting() && s.Corpus == "" {
		unshare, err := shareCorpora()
		if err != nil {
			return err
		}
		defer unshare()
	}
	opts := s.Options
	cells, err := s.cells(ctx, o, &opts)
	if err != nil {
		return err
	}
	if est := time.Duration(opts.Rounds) * time.Duration(len(cells)) * (opts.Window + opts.Warmup); est > longRun && !s.Quiet {
		fmt.Fprintf(o.Stderr, "perfrun: run: %d cells × %d rounds × %v will take at least %v; Ctrl-C keeps the rounds completed by then\n",
			len(cells), opts.Rounds, opts.Window+opts.Warmup, est.Round(time.Minute))
	}
	if !s.Quiet {
		opts.Progress = terminal.Progress(o.Stderr)
		if note := summary.BusyAtStart(harness.Cores()); note != "" {
			fmt.Fprintf(o.Stderr, "perfrun: run: %s\n", note)
		}
	}
	res, err := harness.Run(ctx, cells, opts)
	if !s.Quiet && terminal.IsTerminal(o.Stderr) {
		terminal.ClearLine(o.Stderr)
	}
	if err != nil {
		return err
	}
	if res.Incomplete && len(res.Samples) == 0 {
		// Nothing to keep: the previous results file stays as it was.
		return fmt.Errorf("interrupted before any round completed: nothing written%s", unchanged(s.Out))
	}
	res.Labels = s.Labels
	if !s.Quarantine {
		res.Labels = append(res.Labels, workloads.KV{Key: "quarantine", Value: "off: samples the machine disturbed are kept"})
	}
	res.Command = "perfrun run " + strings.Join(s.Args, " ")
	counts, noPrediction := s.count(ctx, o, res)
	err = s.write(o, res, noPrediction)
	if len(counts) == 0 {
		return err
	}
	for _, c := range counts[:len(counts)-1] {
		fmt.Fprintf(o.Stderr, "perfrun: run: %v\n", c)
	}
	if err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: run: %v\n", counts[len(counts)-1])
		return err
	}
	return fmt.Errorf("%w (%s is written without the counts that failed)", counts[len(counts)-1], s.Out)
}

// longRun is how long a run may take before run says so up front.
const longRun = 10 * time.Minute

// Printers are run's -format choices; each prints a results set.
var Printers = map[string]func(io.Writer, *records.Set, int) error{
	"table":    func(w io.Writer, s *records.Set, cores int) error { report.WriteThreadTables(w, s, cores); return nil },
	"benchfmt": func(w io.Writer, s *records.Set, _ int) error { return s.Write(w) },
	"jmh":      report.WriteJMH,
	"csv":      report.WriteCSV,
	"json":     report.WriteJSON,
}

// DefaultOutput is where run writes when -o is not given: one folder that
// .gitignore covers, so a run in a checkout leaves nothing to commit.
const DefaultOutput = "perfrun-out/results.txt"

// cells sets the corpus of opts up (generated, or loaded once for every
// cell) and plans the cells, fitted to a loaded corpus, with their floors.
func (s *Sweep) cells(ctx context.Context, o *subcommand.Streams, opts *harness.Options) ([]harness.Cell, error) {
	provider, loaded, err := CorpusProvider(ctx, s.Corpus, s.Strict, s.Seed, o.Stderr)
	if err != nil {
		return nil, err
	}
	opts.Corpus = provider
	params := withDefaultCost(s.Params)
	if loaded > 0 {
		// A loaded corpus has the size it has: say so in every cell name.
		for _, p := range params {
			if strings.HasPrefix(p, "certs=") {
				fmt.Fprintf(o.Stderr, "perfrun: run: -param %s ignored: the loaded corpus has %d CAs\n", p, loaded)
			}
		}
		params = append(withoutParam(params, "certs"), fmt.Sprintf("certs=%d", loaded))
		params = fitLoad(params, provider, o.Stderr)
	}
	cells, err := Plan(s.Impl, s.Workload, s.Threads, params, s.Commands...)
	if err == nil {
		cells, err = harness.Match(cells, s.Match)
	}
	if err != nil {
		return nil, subcommand.AsUsage(err)
	}
	if loaded == 0 {
		// A generated corpus this machine cannot hold is refused before
		// any of it is made.
		// certs sizes the corpus; load's n makes as many objects.
		for _, c := range cells {
			for _, key := range []string{"certs", "n"} {
				if v := c.Params.Get(key); v != "" {
					n := c.Params.Int(key)
					hits, misses := corpus.GeneratedLeaves(n)
					if err := corpus.FitsMemory(n, hits+misses, key+"="+v); err != nil {
						return nil, subcommand.AsUsage(err)
					}
				}
			}
		}
	}
	return harness.WithFloors(cells), nil
}

// unchanged says what an interrupted run left alone.
func unchanged(out string) string {
	if out == "" {
		return ""
	}
	if _, err := os.Stat(out); err == nil {
		return "; " + out + " is as it was"
	}
	return ""
}

// counting says whether the run takes counts under callgrind once its
// windows are measured (count).
func (s *Sweep) counting() bool { return s.Instructions || s.Locks || s.Predict > 0 }

// count takes the counts the flags ask for (instructions, lock profiles,
// and those a prediction stands on) once the windows are measured, and
// returns those that failed, and why the prediction has no counts to
// stand on ("" where it has).
func (s *Sweep) count(ctx context.Context, o *subcommand.Streams, res *harness.Outcome) (failed []error, noPrediction string) {
	if res.Incomplete {
		return nil, ""
	}
	cellArgs := cellops.Args(s.Corpus, s.Strict, s.Seed)
	if s.Instructions {
		if err := cellops.CountInstructions(ctx, res, harness.Processes, cellArgs, o.Stderr, s.Quiet); err != nil {
			failed = append(failed, fmt.Errorf("instructions: %w", err))
		}
	}
	if s.Locks && ctx.Err() == nil {
		if err := cellops.CountLocks(ctx, res, cellArgs, o.Stderr, s.Quiet); err != nil {
			failed = append(failed, fmt.Errorf("lock profile: %w", err))
		}
	}
	if s.Predict > 0 && ctx.Err() == nil {
		noPrediction = s.countForPrediction(ctx, o, res, cellArgs)
	}
	return failed, noPrediction
}

// countForPrediction counts, for -predict, what -instructions and -locks
// did not already: a count that cannot be taken costs the prediction, not
// the run: it returns why ("" where every count was taken).
func (s *Sweep) countForPrediction(ctx context.Context, o *subcommand.Streams, res *harness.Outcome, args []string) string {
	var err error
	if !s.Instructions {
		// A prediction needs one count a cell: five are a gate's sample.
		err = cellops.CountInstructions(ctx, res, 1, args, o.Stderr, s.Quiet)
	}
	if err == nil && !s.Locks && ctx.Err() == nil {
		err = cellops.CountLocks(ctx, res, args, o.Stderr, s.Quiet)
	}
	if err != nil {
		return err.Error()
	}
	return ""
}
