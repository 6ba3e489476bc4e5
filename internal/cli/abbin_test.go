package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestABPrebuiltBinaries: ab of two prebuilt binaries (here this perfrun
// twice, under a name testscript.Main runs as perfrun), the head under an
// environment of its own — an OpenSSL developer's two builds of libcrypto —
// gives a verdict named by the binaries and settings, and input that is
// not an arm is refused (exit 2).
func TestABPrebuiltBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("measures")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "perfrun")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Skip(err)
	}
	args := []string{"ab", "-base-bin", bin, "-head-bin", bin, "-head-env", "PERFRUN_ARM=head",
		"-rounds", "5", "-looks", "1", "-inner", "1", "-layouts", "0", "-instructions=false", "-window", "20ms", "-warmup", "5ms",
		"-impl", "rcu", "-threads", "1", "-param", "certs=64", "-q", "-json", filepath.Join(dir, "v.json")}
	code, stdout, stderr := perfrun(args...)
	if code != subcommand.ExitOK && code != subcommand.ExitInconclusive {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "base: perfrun vs head: perfrun PERFRUN_ARM=head") && !strings.Contains(stdout, "(perfrun vs perfrun PERFRUN_ARM=head") {
		t.Errorf("verdict does not name the arms:\n%s", stdout)
	}
	for _, bad := range [][]string{
		{"ab", "-base-bin", filepath.Join(dir, "v.json"), "-head-bin", bin},
		{"ab", "-base-bin", bin, "-head-env", "=x"},
		{"ab", "-base-bin", bin, "HEAD~1", "HEAD"},
	} {
		if code, _, stderr := perfrun(bad...); code != subcommand.ExitUsage {
			t.Errorf("%v: exit %d, want 2: %s", bad, code, stderr)
		}
	}
}
