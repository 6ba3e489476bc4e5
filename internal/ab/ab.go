// Package ab is the machinery of perfrun ab: it builds two revisions, links
// every arm of every round with a code layout of its own, starts base, head
// and base again (the A/A arm) as arm processes and drives them window by
// window, so a slow stretch of the machine lands on all three alike, which
// back-to-back runs cannot promise (results/notes.md, "Interleaving").
//
// Its place: command plumbing, beside compare, whose paired gate judges the
// windows it records, and below the CLI; it knows revisions and processes,
// not stores.
package ab

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
)

// DefaultPkg is the main package ab builds at each revision where none is
// named: perfrun's own.
const DefaultPkg = "./cmd/perfrun"

// ErrBadSource is returned for a repository, revision or package that is
// not one ab can build: the user's to fix (a usage error), not a build that
// failed.
var ErrBadSource = errors.New("nothing ab can build")

// Describe names a revision for people: "HEAD~1 (1a2b3c4 subject of the
// commit)"; rev alone if git cannot say.
func Describe(ctx context.Context, repo, rev string) string {
	out, err := git.Output(ctx, repo, "log", "-1", "--format=%h %s", "--end-of-options", rev, "--")
	line := strings.TrimSpace(string(out))
	if err != nil || line == "" {
		return rev
	}
	if r := []rune(line); len(r) > 72 {
		line = string(r[:71]) + "…"
	}
	if short, _, _ := strings.Cut(line, " "); strings.HasPrefix(line, rev+" ") || strings.HasPrefix(rev, short) {
		return line // rev is the commit's own name, short or full
	}
	return rev + " (" + line + ")"
}

// CheckSource checks, before anything is built, that repo is a git
// repository and pkg a path inside it: relative to its root, and not
// climbing out of it (../elsewhere would build code at neither revision).
func CheckSource(ctx context.Context, repo, pkg string) error {
	if out, err := git.Combined(ctx, repo, "rev-parse", "--show-toplevel"); err != nil {
		return fmt.Errorf("%w: %s is not a git repository (%s)", ErrBadSource, repo, strings.TrimSpace(string(out)))
	}
	if !filepath.IsLocal(filepath.FromSlash(pkg)) {
		return fmt.Errorf("%w: -pkg %s: want a path inside the repository, relative to its root, such as ./cmd/perfrun", ErrBadSource, pkg)
	}
	return nil
}

// checkMain says whether dir, in a revision's worktree, is a main package.
func checkMain(ctx context.Context, dir, pkg, rev string) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%w: -pkg %s is not a folder at %s", ErrBadSource, pkg, rev)
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Name}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	name := strings.TrimSpace(string(out))
	if err == nil && name == "" {
		// Not the user's package at fault: the go on PATH answered nothing.
		return fmt.Errorf("go list named no package for -pkg %s at %s: is %s the Go command?", pkg, rev, goPath())
	}
	if err == nil && name != "main" {
		return fmt.Errorf("%w: -pkg %s is package %s at %s, not a main package (one whose main calls perfrun.Main)", ErrBadSource, pkg, name, rev)
	}
	return nil // a package go list cannot read fails its build, which says why
}

// Build checks rev out and links one binary per entry of layouts (see
// Checkout and Revision.Link): 0 the default layout, any other value
// -ldflags=-randlayout=VALUE. cleanup removes the worktree.
func Build(ctx context.Context, repo, rev, pkg, dir, label string, layouts ...uint64) (binaries []string, cleanup func(), err error) {
	v, err := Checkout(ctx, repo, rev, pkg, dir, label)
	if err != nil {
		return nil, nil, err
	}
	if len(layouts) == 0 {
		layouts = []uint64{0}
	}
	for i, layout := range layouts {
		binary := filepath.Join(dir, "perfrun-"+label)
		if i > 0 {
			binary += strconv.Itoa(i + 1)
		}
		if layout == 0 {
			binaries = append(binaries, v.Plain)
			continue
		}
		if err := v.link(ctx, binary, layout, false); err != nil {
			v.Close()
			return nil, nil, err
		}
		binaries = append(binaries, binary)
	}
	return binaries, v.Close, nil
}

// Runner measures the arms.
type Runner struct {
	// Base and Head are the perfrun binaries of each revision, one per
	// code layout. Round r runs Base[r], Head[r] and, as the A/A arm,
	// Base[r+1] (each modulo its count): every arm's layout changes from
	// round to round, so no verdict rests on one layout, and with two or
	// more layouts the A/A arm sees the kind of difference head does.
	Base, Head []string
	// BaseRev and HeadRev, where set, give every arm of every round a code
	// layout of its own, linked before the round (nothing is measured
	// then; see FreshLayout): the rounds are replicates of the layout as
	// well as of the process and the window, so an interval speaks of the
	// change, not of one layout's luck, and the A/A arm, with layouts of
	// its own, shows what layout alone does to identical code. Base and
	// Head are then unused.
	BaseRev, HeadRev *Revision
	round            map[string]string // the round's binary of each arm, with fresh layouts
	ahead            *linked           // the next round's, linked while this round's arms set up
	// BaseEnv and HeadEnv are KEY=VALUE settings added to the environment
	// of the base (and A/A) arm's processes and of the head arm's: one
	// binary against two builds of a library (LD_LIBRARY_PATH), say.
	BaseEnv, HeadEnv []string
	// Windows pairs the arms at the window (see windows.go): three arm
	// processes per round driven one window at a time. Otherwise each arm
	// is one whole `perfrun run` process after another.
	Windows bool
	RunArgs []string // flags for `perfrun run` (process pairing): cells, window, corpus, seed
	ArmArgs []string // flags for `perfrun arm` (window pairing): cells, window, seed
	Rounds  int
	// Inner is how many windows each arm measures of a cell in a round;
	// the arm's value for the round is their median, which damps
	// window-to-window noise.
	Inner int
	Seed  uint64 // varies the arm order and each process's cell order
	Dir   string // scratch directory for per-arm results
	// Metric is the tidied unit the gate compares.
	Metric string
	// SpeedLimit sets aside a window triple whose arms' speed probes
	// disagree by more than this fraction (window pairing; 0: never).
	SpeedLimit float64
	// Disturbed, if set, says why the machine disturbed one window, from
	// its own values (harness.Quarantine.Window), or "".
	Disturbed func(value func(unit string) (float64, bool)) string
	// Measuring adds up the time the arms spent measuring: windows and
	// their probes (window pairing), or whole arm processes.
	Measuring time.Duration
	// Linking adds up the time spent linking fresh layouts (BaseRev).
	Linking time.Duration
	// Progress reports where the run is: the round, and what of it.
	Progress func(round, rounds int, what string)
	// Stall is the longest an arm may take to answer for one window
	// before ab ends it and says so (window pairing); 0: DefaultStall.
	Stall time.Duration
}

// Arm names.
const (
	ArmBase  = compare.ArmBase
	ArmHead  = compare.ArmHead
	ArmBase2 = compare.ArmBase2
)

// orders are the six orders of the three arms. Every block of six rounds
// runs each once, in a shuffled sequence, so no arm is favoured by its
// place (first after a build, last before the next round).
var orders = [][3]string{
	{ArmBase, ArmHead, ArmBase2}, {ArmBase, ArmBase2, ArmHead},
	{ArmHead, ArmBase, ArmBase2}, {ArmHead, ArmBase2, ArmBase},
	{ArmBase2, ArmBase, ArmHead}, {ArmBase2, ArmHead, ArmBase},
}

// Run runs Rounds rounds with ids from first on; match, if not empty,
// restricts the cells (a regular expression on benchmark names). It
// returns the cells, the per-cell arms by round id, and the machine's
// cores as the results recorded them. A round whose arm lacks a cell
// leaves that round out for that cell only.
func (r *Runner) Run(ctx context.Context, match string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
	if r.Windows {
		return r.runWindows(ctx, match, first)
	}
	arms := make(map[string]compare.Arms)
	var idx cellIndex
	rng := rand.New(rand.NewPCG(r.Seed, uint64(first)+0xab))
	var block [][3]string
	for round := first; round < first+r.Rounds; round++ {
		if len(block) == 0 {
			block = slices.Clone(orders)
			rng.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
		}
		order := block[0]
		block = block[1:]
		if err := r.prepare(ctx, round, first); err != nil {
			return nil, nil, 0, err
		}
		for _, arm := range order {
			if err := ctx.Err(); err != nil {
				return nil, nil, 0, err
			}
			if r.Progress != nil {
				r.Progress(round-first+1, r.Rounds, arm)
			}
			t0 := time.Now()
			set, err := r.runArm(ctx, r.binary(arm, round), arm, round, match)
			r.Measuring += time.Since(t0)
			if err != nil {
				return nil, nil, 0, err
			}
			idx.add(set)
			for _, c := range set.Cells() {
				if c.IsReference() {
					continue
				}
				a := arms[c.Name]
				if c.Aside > 0 {
					a.Aside += c.Aside
					a.Why = c.Why
				}
				// A process whose every sample of the cell was set aside
				// leaves this round out for the cell.
				if v := c.Values[r.Metric]; len(v) > 0 {
					a.Add(arm, round, records.Median(v))
				}
				arms[c.Name] = a
			}
		}
	}
	return idx.cells, arms, idx.cores, nil
}

// cellIndex collects the store cells the arms' results files name, in the
// order first seen, and the most cores any file recorded.
type cellIndex struct {
	known map[string]bool
	cells []*records.Cell
	cores int
}

func (x *cellIndex) add(set *records.Set) {
	if x.known == nil {
		x.known = make(map[string]bool)
	}
	x.cores = max(x.cores, set.Cores())
	for _, c := range set.Cells() {
		if !x.known[c.Name] && !c.IsReference() {
			x.known[c.Name] = true
			x.cells = append(x.cells, c)
		}
	}
}

// env is an arm process's environment: perfrun's, with the arm's settings
// (nil, the default, when it has none).
func (r *Runner) env(arm string) []string {
	extra, side := r.BaseEnv, 0
	if arm == ArmHead {
		extra, side = r.HeadEnv, 1
	}
	return append(append(os.Environ(), r.CorpusCache(side)), extra...)
}

// CorpusCache is the setting that shares a revision's corpora (side 0
// base, 1 head) between its processes: every layout of a revision is one
// build of its generator, and a count of it under callgrind loads what
// its measured processes generated instead of generating it again at
// callgrind's speed. A revision from before the cache ignores it.
func (r *Runner) CorpusCache(side int) string {
	return corpus.CacheEnv + "=" + filepath.Join(r.Dir, "corpus-"+[]string{"base", "head"}[side])
}

func (r *Runner) runArm(ctx context.Context, bin, arm string, round int, match string) (*records.Set, error) {
	out := filepath.Join(r.Dir, fmt.Sprintf("round%03d-%s.txt", round, arm))
	args := append([]string{"run", "-rounds", strconv.Itoa(max(r.Inner, 1)), "-q", "-format", "benchfmt", "-o", out,
		"-order-seed", strconv.FormatUint(r.Seed*1000+uint64(round)+1, 10)}, r.RunArgs...)
	if match != "" {
		args = append(args, "-match", match)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = r.env(arm)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s arm, round %d: %v: %s", arm, round+1, err, strings.TrimSpace(stderr.String()))
	}
	return records.ReadFile(out)
}

// TempDir makes the scratch directory for a comparison, recording this
// process in it, so a later run can tell a live comparison's directory
// from one a killed run left behind (scratch.Dir).
func TempDir() (string, error) { return scratch.Dir("ab-") }

// Keep marks dir, a comparison's scratch directory, as kept: no later
// comparison removes it as left behind.
func Keep(dir string) error {
	return os.WriteFile(filepath.Join(dir, scratch.KeptFile), []byte("kept by perfrun ab -keep; remove the folder when done\n"), 0o644)
}

// PruneStale removes what perfrun processes killed before they could
// clean up left behind: scratch directories whose process is gone (a
// comparison's, a count's, a build's: scratch.Prune), then the git
// worktrees registered in them. It returns the directories removed.
func PruneStale(repo string) []string {
	removed := scratch.Prune()
	forgetWorktrees(repo, removed...)
	return removed
}

// Dirty reports whether the repository's work tree has uncommitted
// changes: ab measures the commits it is given, never them.
func Dirty(repo string) bool {
	out, err := git.Output(context.Background(), repo, "status", "--porcelain", "--untracked-files=no")
	return err == nil && len(strings.TrimSpace(string(out))) > 0
}
