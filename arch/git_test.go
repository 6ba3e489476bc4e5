package arch

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryGitGoesThroughInternalGit: no package but internal/git runs
// git itself, so every question perfrun asks a repository is asked one
// way (git -C, the caller's context).
func TestEveryGitGoesThroughInternalGit(t *testing.T) {
	for _, v := range ownGit(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// TestPlantedGitFound shows the check failing on a package that runs git
// itself, and not on internal/git.
func TestPlantedGitFound(t *testing.T) {
	root, plant := planter(t)
	plant("internal/cli/g.go", "package cli\nimport \"os/exec\"\nvar _ = exec.Command(\"git\", \"-C\", \".\", \"log\")\n")
	plant("internal/cli/flag.go", "package cli\nimport \"flag\"\nvar _ = flag.String(\"git\", \".\", \"the repository\")\n")
	plant("internal/git/g.go", "package git\nimport \"os/exec\"\nvar _ = exec.Command(\"git\", \"log\")\n")
	got := ownGit(t, root)
	if len(got) != 1 || !strings.Contains(got[0], filepath.Join("internal", "cli", "g.go")) {
		t.Errorf("got %q, want internal/cli/g.go alone", got)
	}
}

// ownGit lists the files outside internal/git that start a command whose
// first string argument is "git", test files left out.
func ownGit(t *testing.T, root string) []string {
	return callsOutside(t, root, filepath.Join("internal", "git"), "runs git itself; use internal/git", func(fun string, words []string) bool {
		return (fun == "exec.Command" || fun == "exec.CommandContext") && len(words) > 0 && words[0] == "git"
	})
}
