// Package git runs git for every part of perfrun that asks a repository
// something or changes one (ab's worktrees, bisect's and the history's
// commits, the revision a binary was built from): one place that says
// which git runs and how, so that every caller runs it with -C and the
// same environment, and the layering test can hold the rest to it.
//
// Its place: at the bottom, beside the other helpers that run a tool; it
// knows nothing of perfrun. Its promise: none beyond perfrun's own use
// (internal).
package git

import (
	"context"
	"errors"
	"os/exec"
	"strings"
)

// Output runs git in repo (git -C repo args...) and returns its standard
// output; a failure's *exec.ExitError carries git's standard error.
func Output(ctx context.Context, repo string, args ...string) ([]byte, error) {
	return command(ctx, repo, args).Output()
}

// Combined runs git in repo and returns its standard output and error
// together: what a message quotes where git failed.
func Combined(ctx context.Context, repo string, args ...string) ([]byte, error) {
	return command(ctx, repo, args).CombinedOutput()
}

// Run runs git in repo for its effect alone.
func Run(ctx context.Context, repo string, args ...string) error {
	return command(ctx, repo, args).Run()
}

// Commit is the full name of the commit rev names in repo; an error
// where it names none (or git cannot say). rev is data: it never becomes
// an option.
func Commit(ctx context.Context, repo, rev string) (string, error) {
	out, err := Output(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	full := strings.TrimSpace(string(out))
	if err == nil && full == "" {
		err = errors.New("git rev-parse named no commit")
	}
	return full, err
}

func command(ctx context.Context, repo string, args []string) *exec.Cmd {
	return exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
}
