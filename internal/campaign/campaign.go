package campaign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/perfrun/perfrun/internal/scratch"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// DefaultAt are the thread counts a change is judged at unless a project
// declares its own: one thread (a lone connection's latency, where the
// exact counts are taken), two (the most a 2-core runner measures with
// contention), and predict.DefaultThreads (a server's cores, where OpenSSL
// PR 28599 compared its two designs).
var DefaultAt = []int{1, 2, predict.DefaultThreads}

// ErrInterrupted is Run's error when its context ended before a verdict.
var ErrInterrupted = errors.New("interrupted")

// ErrInput marks a recording Replay cannot judge: the user's to fix.
var ErrInput = errors.New("bad recording")

// A Campaign is one comparison's settings and, once run, its counts.
type Campaign struct {
	Thresholds           compare.Thresholds
	Rounds, Inner, Looks int
	// Budget: start no look that would end past it (0: no limit).
	Budget time.Duration
	// WindowPairing drives the arms window by window; else one whole
	// process per arm and round.
	WindowPairing bool
	SpeedLimit    float64
	// Layouts: -1 a fresh code layout for every arm of every round, else
	// that many per revision (0: the default layout alone).
	Layouts                          int
	Instructions, Locks, Pin, Strict bool
	Keep                             bool
	Repo, Pkg                        string
	// Seed orders the arms and lays their code out; CorpusSeed is the
	// corpus they measure and count, one for every campaign by default:
	// a change's counts, and so its prediction, are the same in each.
	Seed, CorpusSeed uint64
	// ArmArgs are the flags that choose the cells and their windows.
	ArmArgs []string
	// Commands are the names of the foreign commands among the cells.
	Commands []string
	// At are the declared thread counts, ascending.
	At []int
	// Only, if set, matches the first look's cells.
	Only string
	// TimeOff, where set, says why time decides nothing here: the
	// campaign measures one round, which names the cells the counts take,
	// and no further look; the counts and the prediction decide.
	TimeOff string
	// Untimed is TimeOff in a few words, for the line that says what
	// decided each count.
	Untimed string
	// Own, where set, are the constants the machine that measures keeps
	// of its own (hostconstants.Load, UseOwn), kept in the recording: the
	// predictions within the cores use them; nil, the runner's.
	Own     *hostconstants.Record
	ownFrom string // where Own was read
	// Log takes progress; nil for none.
	Log io.Writer

	counts    abcount.Counts
	traffic   abcount.Traffic
	profiles  abcount.Profiles
	predicted abcount.Predicted
	noLocks   string    // why there is no lock verdict, where there is none
	lockBins  [2]string // base's and head's builds for lock profiles
	counted   time.Duration
}

// Prebuilt are the arms of a campaign of binaries built elsewhere (two
// builds of a library, one perfrun under two environments): no revision
// is built and no code layout rotated.
type Prebuilt struct {
	Base, Head         string
	BaseEnv, HeadEnv   []string
	BaseName, HeadName string
}

// A Result is a campaign's verdict and what a report draws from.
type Result struct {
	Report  *compare.Report
	Windows map[string][]compare.Window
	// Counts, Traffic and Profiles are both revisions' counts, where taken.
	Counts    abcount.Counts
	Traffic   abcount.Traffic
	Profiles  abcount.Profiles
	Predicted abcount.Predicted
	// PredictedAt is the count the prediction reaches.
	PredictedAt int
	// Dir is the scratch folder with every arm's results; Runner the arms'.
	Dir    string
	Runner *ab.Runner
	// Cores are those of the machine that measured the windows.
	Cores int
	// Own are the machine's constants the predictions within the cores
	// used, where they were its own (recorded in ConstantsFile).
	Own *hostconstants.Record
	// Building is the time spent building both revisions (their layouts
	// linked later are the Runner's Linking); Counting, counting.
	Building, Counting time.Duration
	cleanup            func()
}

// Close removes the scratch folder (unless kept) and the worktrees.
func (r *Result) Close() {
	if r.cleanup != nil {
		r.cleanup()
	}
}

// PredictAt is the thread count the prediction reaches: the largest
// declared, and at least predict.DefaultThreads, so a project that
// declares no count past the cores still sees what 16 threads would do.
func (c *Campaign) PredictAt() int {
	if len(c.At) == 0 {
		return predict.DefaultThreads
	}
	return max(predict.DefaultThreads, slices.Max(c.At))
}

func (c *Campaign) logf(format string, args ...any) {
	if c.Log != nil {
		// A line may quote what a user gave (a revision): one line, its
		// controls escaped.
		fmt.Fprintf(c.Log, "perfrun: ab: %s\n", records.OneLine(fmt.Sprintf(format, args...)))
	}
}

// UseOwn has the campaign predict within the cores with r, the machine's
// own constants, read from where.
func (c *Campaign) UseOwn(r *hostconstants.Record, where string) { c.Own, c.ownFrom = r, where }

// constantsNote says whose constants the predictions within the cores
// used: the machine's own, from when; else, live, that they are the
// runner's where this is another processor (a replay does not know the
// processor that measured).
func (c *Campaign) constantsNote() string {
	if c.Own != nil {
		return c.Own.Note()
	}
	return predict.Runner.Elsewhere(harness.CPUName())
}

// Run builds base and head (or takes pre's binaries), measures them with
// the A/A arm, counts them and decides. The caller closes the result.
func (c *Campaign) Run(ctx context.Context, base, head string, pre *Prebuilt) (*Result, error) {
	start := time.Now()
	if pre == nil {
		if err := ab.CheckSource(ctx, c.Repo, c.Pkg); err != nil {
			return nil, err
		}
		// Refused before anything is touched: a revision that names no
		// commit prunes nothing.
		if err := ab.CheckRevisions(ctx, c.Repo, base, head); err != nil {
			return nil, err
		}
		for _, d := range ab.PruneStale(c.Repo) {
			c.logf("removed %s: a scratch folder a perfrun left when it ended before cleaning up", d)
		}
		if ab.Dirty(c.Repo) {
			c.logf("%s has uncommitted changes; ab measures the commits %s and %s, not them", c.Repo, base, head)
		}
	}
	dir, err := ab.TempDir()
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: dir, PredictedAt: c.PredictAt(), Cores: harness.Cores(), cleanup: func() {
		if !c.Keep {
			scratch.Remove(dir)
		}
	}}
	if c.Keep {
		if err := ab.Keep(dir); err != nil {
			res.Close()
			return nil, err
		}
		c.logf("keeping %s", dir)
	}
	built := time.Now()
	r, counting, oldName, newName, cleanup, err := c.arms(ctx, dir, base, head, pre)
	res.Building = time.Since(built)
	if err != nil {
		res.Close()
		return nil, err
	}
	remove := res.cleanup
	res.cleanup, res.Runner = func() { cleanup(); remove() }, r
	r.SpeedLimit = c.SpeedLimit
	for side := range counting {
		counting[side].Env = append(slices.Clip(counting[side].Env), r.CorpusCache(side))
	}
	rep, windows, err := c.look(ctx, r, start, counting)
	if err != nil {
		res.Close()
		if ctx.Err() != nil {
			kept := "its scratch folder removed"
			if c.Keep {
				kept = "its scratch folder kept: " + dir
			}
			return nil, fmt.Errorf("%w after %s: no verdict, nothing decided; %s", ErrInterrupted, time.Since(start).Round(time.Second), kept)
		}
		return nil, err
	}
	rep.Old, rep.New = oldName, newName
	if note := c.constantsNote(); note != "" && len(c.predicted.Cells) > 0 {
		rep.Warnings = append(rep.Warnings, note)
	}
	res.Report, res.Windows = rep, windows
	res.Counts, res.Traffic, res.Profiles, res.Predicted, res.Counting, res.Own = c.counts, c.traffic, c.profiles, c.predicted, c.counted, c.Own
	return res, nil
}
