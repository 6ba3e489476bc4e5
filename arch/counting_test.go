package arch

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// countingBuildLeavesOut lists the packages a build made only to be counted
// (internal/cellops) must not hold: what a count never runs and a fresh
// machine pays the most to compile for it, the standard library's own
// recompile aside.
var countingBuildLeavesOut = append([]string{
	drawing, // the plots
	module + "internal/cli",
	module + "report",
	module + "history",
}, historyDatabases...)

// TestCountingBuildsHoldACountAlone: perfrun built for counting
// instructions (cellops.Tag) or for lock profiles (the lock tag) compiles
// the stores, the workloads and the counting, not the rest of the command
// line.
func TestCountingBuildsHoldACountAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("go list of the module's dependencies")
	}
	for _, tag := range []string{"perfrun_cellops", "perfrun_locks"} {
		deps := perfrunDeps(t, tag)
		if !slices.Contains(deps, module+"internal/cellops") {
			t.Errorf("-tags %s: the build does not hold internal/cellops", tag)
		}
		for _, v := range notCounting(deps) {
			t.Errorf("-tags %s: %s", tag, v)
		}
	}
}

// TestPlantedHeavyDependencyFound shows the check failing on a counting
// build that holds SQLite or the command line.
func TestPlantedHeavyDependencyFound(t *testing.T) {
	got := notCounting([]string{"sync", "modernc.org/sqlite", module + "store", module + "internal/cli"})
	if len(got) != 2 || !strings.Contains(got[0], "modernc.org/sqlite") || !strings.Contains(got[1], "internal/cli") {
		t.Errorf("got %q, want sqlite and internal/cli", got)
	}
}

// notCounting names each of deps a counting build must leave out.
func notCounting(deps []string) []string {
	var found []string
	for _, d := range deps {
		for _, out := range countingBuildLeavesOut {
			if under(d, out) {
				found = append(found, d+" is in a build made only to be counted")
				break
			}
		}
	}
	return found
}

// under says whether package d is pkg, or below pkg, or, where pkg ends
// in a slash, any package of that prefix (a module host, say).
func under(d, pkg string) bool {
	return d == pkg || strings.HasPrefix(d, pkg) && (strings.HasSuffix(pkg, "/") || strings.HasPrefix(d, pkg+"/"))
}

// perfrunDeps are the packages perfrun's command line compiles with the
// build tags tags ("" for none), as go list -deps lists them.
func perfrunDeps(t *testing.T, tags string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-tags", tags, module+"cmd/perfrun").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -tags %q: %v\n%s", tags, err, out)
	}
	return strings.Fields(string(out))
}
