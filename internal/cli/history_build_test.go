package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestHistoryOfAPerfrunWithoutTheDatabases: perfrun built as go run
// builds it links no database (arch.TestMainJobBuildLeavesTheDatabasesOut);
// its history commands run in a build of it with them, made once, their
// output and exit codes theirs.
func TestHistoryOfAPerfrunWithoutTheDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds perfrun twice")
	}
	t.Parallel()
	bin := builtPerfrun(t)
	cache, dir := t.TempDir(), t.TempDir()
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	// go's own cache stays where it is: it is under the user's cache
	// folder unless GOCACHE names it.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (code int, stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "GOCACHE="+strings.TrimSpace(string(gocache))) // the build's folder (os.UserCacheDir)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		var exit *exec.ExitError
		if err := cmd.Run(); errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errs.String()
	}
	db := filepath.Join(dir, "history.db")
	const building = "built without the history's databases (the main job needs none): building"
	code, out, errs := run("history", "add", "-db", db, "-commit", strings.TrimSpace(string(head)), "../../docs/testdata/baseline.txt")
	if code != subcommand.ExitOK || !strings.Contains(errs, building) || !strings.Contains(out, "1 files added") {
		t.Fatalf("history add: exit %d, want %d, saying it builds perfrun with the databases\n%s\n%s", code, subcommand.ExitOK, out, errs)
	}
	code, out, errs = run("history", "info", "-db", db)
	if code != subcommand.ExitOK || strings.Contains(errs, building) || !strings.HasPrefix(strings.SplitN(out, "\n", 2)[1], "1 files") {
		t.Errorf("history info: exit %d, want %d from the build made before, without building\n%s\n%s", code, subcommand.ExitOK, out, errs)
	}
	code, _, errs = run("history", "info", "-db", filepath.Join(dir, "none.db"))
	if code != subcommand.ExitUsage || !strings.Contains(errs, "no history at") {
		t.Errorf("history info of no history: exit %d, want the command's own %d\n%s", code, subcommand.ExitUsage, errs)
	}
	code, out, _ = run("history", "info", "-h")
	if code != subcommand.ExitOK || !strings.Contains(out, "usage: perfrun history info") {
		t.Errorf("history info -h: exit %d, want its help\n%s", code, out)
	}
}
