package ab

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/internal/git"
)

// forgetWorktrees unregisters from repo the git worktrees whose folder
// lies inside one of dirs — scratch folders of perfrun's own — and no
// other: a user's worktree whose folder was moved keeps its registration,
// which "git worktree prune" would drop.
func forgetWorktrees(repo string, dirs ...string) {
	out, err := git.Output(context.Background(), repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return
	}
	admin := filepath.Join(strings.TrimSpace(string(out)), "worktrees")
	entries, err := os.ReadDir(admin)
	if err != nil {
		return
	}
	forgot := false
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(admin, e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		at := strings.TrimSpace(string(data))
		for _, d := range dirs {
			if d != "" && strings.HasPrefix(at, filepath.Clean(d)+string(filepath.Separator)) {
				os.RemoveAll(filepath.Join(admin, e.Name()))
				forgot = true
			}
		}
	}
	if forgot {
		os.Remove(admin) // only if empty: as git leaves it when its last worktree goes
	}
}
