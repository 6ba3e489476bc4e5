package locks

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/perfrun/perfrun/internal/gobuild"
	"github.com/perfrun/perfrun/internal/scratch"
)

// Rebuilt proves that the source of pkg in dir is the source of the
// binary exe, which recorded info, where no VCS stamp can: built again
// from dir with the settings exe recorded (its flags, its tags, its
// GOOS, GOARCH and cgo), it must be exe byte for byte. Go's builds are
// reproducible, so only other source (or another toolchain) differs.
// go run strips its binaries (-s -w) without recording so: a binary with
// no symbol table and no -s recorded is built again by go run itself.
// scratch is a folder for the build.
func Rebuilt(ctx context.Context, exe string, info *debug.BuildInfo, dir, pkg, scratch string) error {
	flags := []string{"-buildvcs=false"}
	var env []string
	ldflags := ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "-buildvcs" || strings.HasPrefix(s.Key, "vcs"):
		case s.Key == "-buildmode" && s.Value == "exe":
			// Recorded for the default mode too, and given as a flag it
			// builds another binary.
		case s.Key == "-ldflags":
			ldflags = s.Value
		case strings.HasPrefix(s.Key, "-"):
			flags = append(flags, s.Key+"="+s.Value)
		case s.Key == "CGO_ENABLED" || strings.HasPrefix(s.Key, "CGO_") || strings.HasPrefix(s.Key, "GO"):
			env = append(env, s.Key+"="+s.Value)
		}
	}
	if ldflags != "" {
		flags = append(flags, "-ldflags="+ldflags)
	}
	out := filepath.Join(scratch, "perfrun-again")
	args := append(append([]string{"build"}, flags...), "-o", out, "--", pkg)
	if !symbols(exe) && !strings.Contains(" "+ldflags+" ", " -s ") {
		// go run's binary: built again as go run builds it, and copied
		// where go run would start it.
		args = append(append([]string{"run"}, flags...), "-exec", "cp", pkg, out)
	}
	if err := gobuild.RunEnv(ctx, dir, env, args...); err != nil {
		return fmt.Errorf("building %s again from %s to prove it is this binary's source: %w", pkg, dir, err)
	}
	defer os.Remove(out)
	a, err := os.ReadFile(exe)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("%s carries no VCS revision, and the source in %s builds another binary: counting it would count other code than the code timed "+
			"(build perfrun again from %s, or in a git checkout without -buildvcs=false, so that it names its revision)%s", exe, dir, dir, unrecordedCgo(info))
	}
	return nil
}

// unrecordedCgo says, of a cgo binary built with -trimpath, that it
// recorded no CGO_CFLAGS or CGO_LDFLAGS (go build leaves them out, as they
// may name folders), so its build again has only this process's: a
// library linked from elsewhere (a local libcrypto) needs them set as they
// were. "" for any other binary.
func unrecordedCgo(info *debug.BuildInfo) string {
	var trimmed, cgo bool
	for _, s := range info.Settings {
		switch s.Key {
		case "-trimpath":
			trimmed = s.Value == "true"
		case "CGO_ENABLED":
			cgo = s.Value == "1"
		case "CGO_CFLAGS", "CGO_LDFLAGS":
			return ""
		}
	}
	if !trimmed || !cgo {
		return ""
	}
	return "; a cgo program built with -trimpath records no CGO_CFLAGS or CGO_LDFLAGS: run it with those it was built with set (the environment build-libcrypto.sh prints)"
}

// symbols says whether the ELF program at path has a symbol table.
func symbols(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return true // not ELF: held to it whole
	}
	defer f.Close()
	return f.Section(".symtab") != nil
}

// provenSelf is Rebuilt for this very program.
func provenSelf(ctx context.Context, b SelfBuild) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		return fmt.Errorf("%s: %w", exe, err)
	}
	work, err := scratch.Dir("proof-")
	if err != nil {
		return err
	}
	defer scratch.Remove(work)
	return Rebuilt(ctx, exe, info, b.Dir, b.Pkg, work)
}
