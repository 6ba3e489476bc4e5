package bisect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/procgroup"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/records"
)

// ABProbe measures each probe by running this program's ab on the probe
// commit against the reference, in a child of its own (its worktrees and
// files go when it ends), and judges the JSON report ab writes. The whole
// range's report chooses the cell followed (Follower), measured alone from
// then on.
type ABProbe struct {
	Repo, Pkg string // the repository, and the main package ab builds
	Cells     ab.Cells
	Seed      uint64        // each probe's seed is Seed*1000 + its number
	Budget    time.Duration // the whole search's; 0 for none
	Start     time.Time     // when the search began, for Budget
	OutDir    string        // where each probe's report goes (probeNN.json)
	Log       io.Writer     // says a commit that does not build is skipped; nil for quiet
	Follower
	probes int
}

// Commits are the commits of repo after good up to bad, oldest first
// (first-parent ones, with firstParent); good comes back as its full name.
func Commits(ctx context.Context, repo, good, bad string, firstParent bool) ([]string, string, error) {
	full := func(rev string) (string, error) {
		c, err := git.Commit(ctx, repo, rev)
		if err != nil {
			return "", subcommand.UsageError("%s is not a commit of %s", rev, repo)
		}
		return c, nil
	}
	g, err := full(good)
	if err != nil {
		return nil, "", err
	}
	bd, err := full(bad)
	if err != nil {
		return nil, "", err
	}
	args := []string{"rev-list", "--reverse"}
	if firstParent {
		args = append(args, "--first-parent")
	}
	out, err := git.Output(ctx, repo, append(args, g+".."+bd)...)
	if err != nil {
		return nil, "", fmt.Errorf("git rev-list %s..%s: %w", history.ShortCommit(g), history.ShortCommit(bd), err)
	}
	commits := strings.Fields(string(out))
	if len(commits) == 0 {
		return nil, "", subcommand.UsageError("%s is not after %s: no commits between them", bad, good)
	}
	return commits, g, nil
}

// Measure runs ab on head against base, on the cell followed (the cells
// chosen, for the whole range), at the threshold.
func (b *ABProbe) Measure(ctx context.Context, base, head string, thr float64) (Measurement, error) {
	m := Measurement{Base: base, Head: head, Instructions: math.NaN()}
	self, err := os.Executable()
	if err != nil {
		return m, err
	}
	b.probes++
	jsonFile := filepath.Join(b.OutDir, fmt.Sprintf("probe%02d.json", b.probes))
	args := []string{"ab", "-q", "-json", jsonFile, "-repo", b.Repo, "-pkg", b.Pkg,
		"-threshold", strconv.FormatFloat(100*math.Abs(thr), 'f', 2, 64) + "%",
		"-seed", strconv.FormatUint(b.Seed*1000+uint64(b.probes), 10)}
	if b.Budget > 0 {
		left := b.Budget - time.Since(b.Start)
		if left < time.Minute {
			left = time.Minute
		}
		args = append(args, "-budget", left.Round(time.Second).String())
	}
	args = append(append(args, b.Cells.Args()...), base, head)
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, self, args...)
	procgroup.Gentle(cmd, terminal.ChildGrace)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = nil, &stderr
	err = cmd.Run()
	m.Wall = time.Since(t0)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == subcommand.ExitFailure {
		if berr := Builds(ctx, b.Repo, b.Pkg, head); berr != nil {
			if b.Log != nil {
				fmt.Fprintf(b.Log, "perfrun: bisect: %s does not build: skipped\n", history.ShortCommit(head))
			}
			return m, fmt.Errorf("%s %w: %v", history.ShortCommit(head), ErrDoesNotBuild, berr)
		}
		// Every probe measures against the good commit: if it does not
		// build, nothing can be measured, and that is the user's to fix.
		if berr := Builds(ctx, b.Repo, b.Pkg, base); berr != nil {
			return m, subcommand.UsageError("the good commit %s does not build, so nothing can be measured against it: %s", history.ShortCommit(base), firstLine(berr.Error()))
		}
	}
	if err != nil && !(errors.As(err, &exit) && (exit.ExitCode() == subcommand.ExitRegression || exit.ExitCode() == subcommand.ExitInconclusive)) {
		if ctx.Err() != nil {
			return m, ctx.Err()
		}
		return m, fmt.Errorf("ab %s %s: %w: %s", history.ShortCommit(base), history.ShortCommit(head), err, lastLines(stderr.String(), 5))
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		return m, err
	}
	var rep compare.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return m, fmt.Errorf("%s: %w", jsonFile, err)
	}
	if b.Tracked == "" {
		b.follow(rep)
	}
	b.Judge(&m, rep, thr)
	return m, nil
}

// follow has the whole range's report choose the cell followed
// (bisect.Follower), and measures it alone from then on.
func (b *ABProbe) follow(rep compare.Report) {
	if cell := b.Follow(rep); cell != "" {
		b.Cells.Select(cell)
	}
}

// Builds says why commit does not build, or nil when it does.
func Builds(ctx context.Context, repo, pkg, commit string) error {
	dir, err := ab.TempDir()
	if err != nil {
		return err
	}
	defer scratch.Remove(dir)
	v, err := ab.Checkout(ctx, repo, commit, pkg, dir, "probe")
	if err != nil {
		return err
	}
	v.Close()
	return nil
}

// Subject is a commit's subject line, or "" where git cannot say.
func Subject(ctx context.Context, repo, commit string) string {
	out, err := git.Output(ctx, repo, "log", "-1", "--format=%s", commit)
	if err != nil {
		return ""
	}
	// A subject is the committer's text: one line, no control character.
	return records.OneLine(strings.TrimSpace(string(out)))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// firstLine is the first line of s: a build's error chain begins with
// what went wrong.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
