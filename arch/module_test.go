package arch

import (
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// repository has the tests that need more of the repository than
// perfrun's module run too: one that builds a store kept in a module of
// its own (examples/shardedmap). CI passes it (.ci/run).
var repository = flag.Bool("repository", false, "also run the tests that need the repository's other modules")

// MostModuleBytes bounds the files of perfrun's module download, what
// go get puts in a user's module cache: results/ and the example store
// are modules of their own and are not in it.
const MostModuleBytes = 3 << 20

// leftoverNames are the names of what a tool leaves beside its work: a
// profile, a core, a test binary, a failed golden picture, the main job's
// output. None belongs in the repository, but as a test's fixture.
var leftoverNames = []string{"callgrind.out.*", "cachegrind.out.*", "massif.out.*", "vgcore.*", "core", "core.*",
	"perf.data*", "*.prof", "*.test", "__debug_bin*", "*.failed.png", "*.failed.svg"}

// TestNothingAToolLeftIsCommitted: no tracked file is named as a tool's
// leftover, or is one the .gitignore ignores (added by force).
func TestNothingAToolLeftIsCommitted(t *testing.T) {
	files := tracked(t)
	for _, f := range leftovers(files) {
		t.Errorf("%s is what a tool left: git rm --cached it", f)
	}
	out, err := exec.Command("git", "-C", moduleRoot(t), "ls-files", "--cached", "--ignored", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(out)) {
		t.Errorf("%s is tracked, and the .gitignore ignores it", f)
	}
}

// TestPlantedLeftoverFound shows the check failing on a profile
// callgrind wrote at the root and a test binary in a folder.
func TestPlantedLeftoverFound(t *testing.T) {
	got := leftovers([]string{"README.md", "callgrind.out.7820", "harness/harness.test", "records/importers/testdata/callgrind.out.ls-3.19.txt.bz2", "core/x.go"})
	if !slices.Equal(got, []string{"callgrind.out.7820", "harness/harness.test"}) {
		t.Errorf("got %q, want the profile and the test binary", got)
	}
}

// TestTheModuleDownloadIsSmall: the files of the module as go get
// downloads it weigh at most MostModuleBytes.
func TestTheModuleDownloadIsSmall(t *testing.T) {
	files := tracked(t)
	total, biggest := moduleBytes(t, moduleRoot(t), files)
	t.Logf("the module download holds %d bytes of files, at most %d; the largest: %s", total, MostModuleBytes, strings.Join(biggest, ", "))
	if total > MostModuleBytes {
		t.Errorf("the module download holds %d bytes, over %d; the largest: %s", total, MostModuleBytes, strings.Join(biggest, ", "))
	}
}

// TestPlantedWeightFound shows the check counting a large file of the
// module and leaving out one of a nested module.
func TestPlantedWeightFound(t *testing.T) {
	root, plant := planter(t)
	plant("go.mod", "module x\n")
	plant("big.bin", strings.Repeat("x", MostModuleBytes))
	plant("results/go.mod", "module x/results\n")
	plant("results/huge.txt", strings.Repeat("x", 2*MostModuleBytes))
	total, biggest := moduleBytes(t, root, []string{"go.mod", "big.bin", "results/go.mod", "results/huge.txt"})
	if total != MostModuleBytes+9 || len(biggest) == 0 || !strings.HasPrefix(biggest[0], "big.bin") {
		t.Errorf("counted %d bytes (largest %q), want big.bin's and go.mod's alone", total, biggest)
	}
}

// tracked are the files git tracks in the repository, slash-separated
// from its root; a module download, which has no repository, skips.
func tracked(t *testing.T) []string {
	t.Helper()
	root := moduleRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout: the module as downloaded")
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// leftovers are the files whose names are a tool's leftover, but a
// test's fixture (in a testdata folder), which may be one on purpose.
func leftovers(files []string) []string {
	var out []string
	for _, f := range files {
		if slices.Contains(strings.Split(f, "/"), "testdata") {
			continue
		}
		if slices.ContainsFunc(leftoverNames, func(p string) bool { ok, _ := path.Match(p, path.Base(f)); return ok }) {
			out = append(out, f)
		}
	}
	return out
}

// moduleBytes sums the sizes of files under root that belong to the
// module at root, not to a module nested in it, and names the five
// largest.
func moduleBytes(t *testing.T, root string, files []string) (int64, []string) {
	t.Helper()
	var nested []string
	for _, f := range files {
		if path.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, path.Dir(f)+"/")
		}
	}
	type sized struct {
		name string
		size int64
	}
	var total int64
	var all []sized
	for _, f := range files {
		if slices.ContainsFunc(nested, func(n string) bool { return strings.HasPrefix(f, n) }) {
			continue
		}
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			continue // deleted in the worktree, not yet committed
		}
		total += info.Size()
		all = append(all, sized{f, info.Size()})
	}
	slices.SortFunc(all, func(a, b sized) int { return int(b.size - a.size) })
	var biggest []string
	for _, s := range all[:min(5, len(all))] {
		biggest = append(biggest, s.name+" "+strconv.FormatInt(s.size, 10))
	}
	return total, biggest
}
