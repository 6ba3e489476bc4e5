package ab

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/gobuild"
)

// anchorReplaces makes the worktree's copy of the module that holds dir
// build as the user's checkout does: each replace directive whose target
// is a relative path ("../perfrun", a checkout beside the user's module)
// is rewritten to the absolute path it names from the module's folder in
// repo. ab builds a revision in a worktree elsewhere, where the relative
// path names nothing. Only the worktree's go.mod changes, never the
// user's.
func anchorReplaces(ctx context.Context, dir, wt, repo string) error {
	gomod, _, err := gobuild.ModuleFile(ctx, dir)
	if err != nil || gomod == "" {
		return nil // no module: go build says what is wrong
	}
	rel, err := filepath.Rel(wt, filepath.Dir(gomod))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return nil
	}
	top, err := git.Output(ctx, repo, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil
	}
	home := filepath.Join(strings.TrimSpace(string(top)), rel)
	_, local, err := gobuild.LocalReplaces(ctx, gomod)
	if err != nil {
		return fmt.Errorf("reading %s: %w", gomod, err)
	}
	for _, r := range local {
		if err := gobuild.Run(ctx, filepath.Dir(gomod), "mod", "edit", "-replace="+r.Old+"="+filepath.Join(home, r.New)); err != nil {
			return fmt.Errorf("anchoring the replace of %s: %w", r.Old, err)
		}
	}
	return nil
}
