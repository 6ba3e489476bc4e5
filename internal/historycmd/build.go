package historycmd

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// historyElsewhere runs the history command args in a build of this
// program with the history's databases (history.Tag), for a perfrun built
// without them, as go run ./cmd/perfrun builds it: the main job and every
// other command need neither, and they are the largest part of perfrun to
// compile. The build comes from this program's own source, as a count's
// does, into the user's cache; go's cache keeps its packages, and a build
// already current writes nothing. Its exit code is the command's.
func historyElsewhere(ctx context.Context, o *subcommand.Streams, args []string) error {
	src, err := locks.SelfSource(ctx)
	if err != nil {
		return fmt.Errorf("%w, and no build of it with them: %w", history.ErrNoDrivers, err)
	}
	out, err := historyBinary(src)
	if err != nil {
		return err
	}
	if _, err := os.Stat(out); err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: this perfrun was built without the history's databases (the main job needs none): building %s from %s with them (-tags %s), once\n", src.Name, src.Dir, history.Tag)
	}
	if err := src.BuildWith(ctx, out, history.Tag); err != nil {
		return fmt.Errorf("building perfrun with the history's databases: %w (build it with -tags %s and run that)", err, history.Tag)
	}
	// No context: an interrupt reaches the command too, which ends as it
	// does when run alone (a file being added is all there or not at all).
	cmd := exec.Command(out, append([]string{"history"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, o.Stdout, o.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() >= 0 {
		return &subcommand.ExitError{Code: exit.ExitCode()}
	}
	return err
}

// historyBinary is where the build of src with the history's databases
// goes: a folder of the user's cache of its own for each source folder,
// package and tags.
func historyBinary(src locks.SelfBuild) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w, and no cache folder to build it in: %w", history.ErrNoDrivers, err)
	}
	key := sha256.Sum256([]byte(strings.Join(append([]string{src.Dir, src.Pkg, fmt.Sprint(src.Trimpath)}, src.Tags...), "\x00")))
	dir := filepath.Join(cache, "perfrun", "history", fmt.Sprintf("%x", key[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, "perfrun"), nil
}

// helpAsked says whether a command's arguments ask for its help, which a
// perfrun without the history's databases prints itself.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}
