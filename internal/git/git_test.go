package git

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestRunsInTheRepositoryGiven: git runs in repo (-C), its output comes
// back, and its failure carries git's own words.
func TestRunsInTheRepositoryGiven(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	repo := t.TempDir()
	if err := Run(ctx, repo, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	out, err := Output(ctx, repo, "rev-parse", "--show-toplevel")
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), repo[strings.LastIndex(repo, "/"):]) {
		t.Errorf("rev-parse --show-toplevel: %q, %v; want %s", out, err, repo)
	}
	_, err = Output(ctx, repo, "rev-parse", "--verify", "nosuch^{commit}")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || len(exit.Stderr) == 0 {
		t.Errorf("a revision that is not there: %v, want git's exit with its message", err)
	}
	if msg, err := Combined(ctx, repo, "log"); err == nil || !strings.Contains(string(msg), "does not have any commits") {
		t.Errorf("git log of an empty repository: %q, %v", msg, err)
	}
}

// TestCommitNamesOneOrErrs: a revision that names a commit gives its full
// name; one that names none, or reads as an option, is an error.
func TestCommitNamesOneOrErrs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"}} {
		if err := Run(ctx, repo, args...); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := Commit(ctx, repo, "HEAD"); err != nil || len(c) != 40 {
		t.Errorf("HEAD: %q, %v; want a full name", c, err)
	}
	for _, rev := range []string{"nosuch", "--all", "HEAD~5"} {
		if c, err := Commit(ctx, repo, rev); err == nil {
			t.Errorf("%s named %q, want an error", rev, c)
		}
	}
}
