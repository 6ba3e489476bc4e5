package ab

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/internal/git"
)

// anchorReplaces makes the worktree's copy of the module that holds dir
// build as the user's checkout does: each replace directive whose target
// is a relative path ("../perfrun", a checkout beside the user's module)
// is rewritten to the absolute path it names from the module's folder in
// repo. ab builds a revision in a worktree elsewhere, where the relative
// path names nothing. Only the worktree's go.mod changes, never the
// user's.
func anchorReplaces(ctx context.Context, dir, wt, repo string) error {
	env := exec.CommandContext(ctx, "go", "env", "GOMOD")
	env.Dir = dir
	out, err := env.Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
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
	edit := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	edit.Dir = filepath.Dir(gomod)
	data, err := edit.Output()
	if err != nil {
		return fmt.Errorf("reading %s: %w", gomod, err)
	}
	var mod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(data, &mod); err != nil {
		return fmt.Errorf("reading %s: %w", gomod, err)
	}
	for _, r := range mod.Replace {
		if r.New.Version != "" || filepath.IsAbs(r.New.Path) || !strings.HasPrefix(r.New.Path, "./") && !strings.HasPrefix(r.New.Path, "../") {
			continue // a module version, or a path that means the same anywhere
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		fix := exec.CommandContext(ctx, "go", "mod", "edit", "-replace="+old+"="+filepath.Join(home, r.New.Path))
		fix.Dir = filepath.Dir(gomod)
		if msg, err := fix.CombinedOutput(); err != nil {
			return fmt.Errorf("anchoring the replace of %s: %w: %s", old, err, strings.TrimSpace(string(msg)))
		}
	}
	return nil
}
