package locks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/internal/filelock"
	"github.com/perfrun/perfrun/internal/gobuild"
)

// stableLinks is how many links to one module a user's cache keeps: one
// for each perfrun of that module building for lock profiles at once.
const stableLinks = 4

// stableFolder is the folder to build dir's package in for lock profiles:
// dir reached through a link in the user's cache that points at dir's
// module, the same link for every copy of the module. go's cache keys a
// package built without -trimpath by its folder, and the profiling build
// rewrites the user's packages, so in every new clone they would compile
// again; through the link they compile once. The link is this process's
// until release. dir itself is the answer where the module cannot be
// reached through a link as it is (a workspace, a replace by a relative
// folder), where there is no cache folder, or where every link is taken.
func stableFolder(ctx context.Context, dir string) (folder string, release func()) {
	none := func() {}
	mod, err := linkableModule(ctx, dir)
	if err != nil {
		return dir, none
	}
	rel, err := filepath.Rel(mod.root, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return dir, none
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return dir, none
	}
	base := filepath.Join(cache, "perfrun", "lockbuild")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return dir, none
	}
	name := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(mod.path)
	for i := range stableLinks {
		link := filepath.Join(base, fmt.Sprintf("%s-%d", name, i))
		unlock, ok, err := filelock.TryLock(link + ".lock")
		if err != nil {
			return dir, none
		}
		if !ok {
			continue
		}
		if err := pointAt(link, mod.root); err != nil {
			unlock()
			return dir, none
		}
		return filepath.Join(link, rel), unlock
	}
	return dir, none
}

// pointAt makes link a link to target, replacing what was there in one
// rename.
func pointAt(link, target string) error {
	if now, err := os.Readlink(link); err == nil && now == target {
		return nil
	}
	tmp := link + ".new"
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}

// A module is the root folder of a module and its path.
type module struct{ root, path string }

// linkableModule is dir's module where its build reads nothing by a path
// relative to a folder outside the module: no workspace (go.work is found
// by walking up from the folder) and no replace by a relative folder.
func linkableModule(ctx context.Context, dir string) (module, error) {
	gomod, gowork, err := gobuild.ModuleFile(ctx, dir)
	if err != nil {
		return module{}, err
	}
	if gomod == "" || gowork != "" {
		return module{}, fmt.Errorf("no module of its own, or a workspace")
	}
	path, local, err := gobuild.LocalReplaces(ctx, gomod)
	if err != nil {
		return module{}, err
	}
	if len(local) > 0 {
		return module{}, fmt.Errorf("%s replaced by the relative folder %s", local[0].Old, local[0].New)
	}
	return module{root: filepath.Dir(gomod), path: path}, nil
}
