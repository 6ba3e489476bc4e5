package ab

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/gobuild"
)

// A Revision is one revision of a repository checked out in a worktree
// and compiled once: a binary of any code layout then costs a link alone,
// about a second, so a comparison can give every arm of every round a
// layout of its own. Every build of a revision is -trimpath: its
// packages' cache keys then do not name the worktree, so a revision built
// before (or one sharing packages with the other) compiles from go's
// cache; without it every fresh worktree compiled every package of the
// module again.
type Revision struct {
	Name   string // as the user gave it
	Commit string // the full commit id
	// Plain is the revision's binary in the linker's default layout, with
	// its symbol table: what callgrind counts instructions in (they do not
	// depend on the layout; callgrind finds the counted function by name).
	// It has no debug information, which valgrind would read at the start
	// of every count.
	Plain  string
	dir    string // the main package's folder in the worktree
	wt     string
	repo   string
	relink *gobuild.Relinker // Plain's link step, which Link repeats; nil: Link builds
	// goTmp is where go keeps its work folders: in the scratch folder,
	// which the next comparison prunes when this one is killed.
	goTmp string
}

// scratch is ctx with go's work folders in the revision's scratch.
func (v *Revision) scratch(ctx context.Context) context.Context {
	return gobuild.WithScratch(ctx, v.goTmp)
}

// Checkout checks rev of the git repository at repo out into a worktree
// under dir and builds the main package at pkg there (a path relative to
// the repository's root, such as ./cmd/perfrun, or a store author's own
// main, which may sit in a module of its own below the root) in the
// default layout, as Plain, its module's relative replace directives
// anchored where the user's checkout has them (anchorReplaces). Close
// removes the worktree.
func Checkout(ctx context.Context, repo, rev, pkg, dir, label string) (*Revision, error) {
	commit, err := resolve(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	v := &Revision{Name: rev, Commit: commit, wt: filepath.Join(dir, "src-"+label), repo: repo,
		goTmp: filepath.Join(dir, "go-"+label)}
	worktrees.Lock()
	msg, err := git.Combined(ctx, repo, "worktree", "add", "--quiet", "--detach", "--", v.wt, v.Commit)
	worktrees.Unlock()
	if err != nil {
		v.Close() // an add cut short may have registered the worktree
		if ctx.Err() != nil {
			// Interrupted: git's end is ours, not its failure.
			return nil, fmt.Errorf("checking %q out: %w", rev, ctx.Err())
		}
		return nil, fmt.Errorf("git worktree add %q: %w: %s", rev, err, lastLine(msg))
	}
	v.dir = filepath.Join(v.wt, filepath.FromSlash(pkg))
	if err := anchorReplaces(ctx, v.dir, v.wt, repo); err != nil {
		v.Close()
		return nil, err
	}
	if err := checkMain(ctx, v.dir, pkg, rev); err != nil {
		v.Close()
		return nil, err
	}
	v.Plain = filepath.Join(dir, "perfrun-"+label+"-plain")
	relink, err := gobuild.NewRelinker(v.scratch(ctx), v.dir, v.Plain, "-trimpath", "-ldflags="+v.stamp()+" -w")
	if err != nil {
		v.Close()
		return nil, fmt.Errorf("building %s (%s): %w", v.Name, v.Commit[:12], err)
	}
	v.relink = relink
	if fi, err := os.Stat(v.Plain); err != nil || !fi.Mode().IsRegular() {
		v.Close()
		return nil, fmt.Errorf("building %s (%s): go build wrote no binary (%s, GOFLAGS=%q)", v.Name, v.Commit[:12], goPath(), os.Getenv("GOFLAGS"))
	}
	return v, nil
}

// resolve is the commit rev names in repo.
func resolve(ctx context.Context, repo, rev string) (string, error) {
	full, err := git.Commit(ctx, repo, rev)
	if err != nil && ctx.Err() != nil {
		return "", fmt.Errorf("checking %q out: %w", rev, ctx.Err())
	} else if err != nil {
		return "", fmt.Errorf("%w: %q is not a revision of %s", ErrBadSource, rev, repo)
	}
	return full, nil
}

// CheckRevisions says which of revs names no commit of repo, before
// anything is done for them.
func CheckRevisions(ctx context.Context, repo string, revs ...string) error {
	for _, rev := range revs {
		if _, err := resolve(ctx, repo, rev); err != nil {
			return err
		}
	}
	return nil
}

// goPath is the go command that builds, as PATH finds it, for a message.
func goPath() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// worktrees runs this process's git worktree commands one at a time: the
// two revisions are built side by side, their worktrees registered in
// turn.
var worktrees sync.Mutex

// stamp is the linker flag by which an arm names its revision in its
// results (harness.Stamp): a worktree build has no VCS stamp of Go's own.
func (v *Revision) stamp() string {
	return "-X=github.com/perfrun/perfrun/harness.Stamp=" + v.Commit
}

// Link links the revision's binary at out with the code layout layout:
// 0 the linker's default, any other value -randlayout=layout (the
// linker's random function order). The binary has no symbol table or
// debug information, which only makes it link faster.
func (v *Revision) Link(ctx context.Context, out string, layout uint64) error {
	if v.relink == nil {
		return v.link(ctx, out, layout, true)
	}
	flags := []string{"-s", "-w"}
	if layout != 0 {
		flags = append(flags, "-randlayout="+strconv.FormatUint(layout, 10))
	}
	if err := v.relink.Link(ctx, out, flags...); err != nil {
		return fmt.Errorf("linking %s (%s): %w", v.Name, v.Commit[:12], err)
	}
	return nil
}

// link links by a go build: Link where the revision's link step is not
// one the linker alone can repeat, and Build's layouts (with a symbol
// table, unless strip).
func (v *Revision) link(ctx context.Context, out string, layout uint64, strip bool) error {
	ldflags := v.stamp()
	if strip {
		ldflags += " -s -w"
	}
	if layout != 0 {
		ldflags += " -randlayout=" + strconv.FormatUint(layout, 10)
	}
	if err := gobuild.Run(v.scratch(ctx), v.dir, "build", "-trimpath", "-o", out, "-ldflags="+ldflags, "."); err != nil {
		return fmt.Errorf("building %s (%s): %w", v.Name, v.Commit[:12], err)
	}
	return nil
}

// Close removes the worktree and prunes its registration, whatever state
// an interrupt left it in: the user's repository lists no worktree of ab's
// afterwards.
func (v *Revision) Close() {
	if v.relink != nil {
		v.relink.Close()
	}
	worktrees.Lock()
	defer worktrees.Unlock()
	git.Run(context.Background(), v.repo, "worktree", "remove", "--force", "--", v.wt)
	os.RemoveAll(v.wt)
	forgetWorktrees(v.repo, v.wt) // an add cut short registers a worktree remove cannot find
}

// BuildLocks builds the revision's main package at out for lock profiles
// (harness/locks): its locks hooked, with the build tag, and without debug
// information, as Plain.
func (v *Revision) BuildLocks(ctx context.Context, out string) error {
	if err := locks.Build(v.scratch(ctx), v.dir, ".", out, nil, "-trimpath", "-ldflags="+v.stamp()+" -w"); err != nil {
		return fmt.Errorf("%s (%s): %w", v.Name, v.Commit[:12], err)
	}
	return nil
}

// lastLine is the last line a command printed that says something: where
// git says why it failed, after any progress.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
