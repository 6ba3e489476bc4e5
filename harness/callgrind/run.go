package callgrind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/perfrun/perfrun/internal/procgroup"
)

// Env is what every counted process runs with, after the caller's own
// settings: one thread of Go code, no garbage collection (its work would
// enter the count), and no asynchronous preemption. Preemption is the
// reason: to preempt a goroutine the Go runtime sends its thread SIGURG
// and the handler redirects the thread into the scheduler, a return that
// callgrind's call tracking does not expect, and valgrind 3.19 then
// aborts on "Assertion 'sigNum == vgCallgrind_current_state.sig'" (or,
// past the assertion, counts instructions that depend on wall time).
// With preemption off the runtime sends no signal at all. And
// cpu.rdtscp=off: where the processor has RDTSCP the runtime reads its
// clock with it when one of its own locks is contended, an instruction
// valgrind 3.19 cannot translate (the process dies of SIGILL); without it
// the runtime reads the clock as on processors that lack it.
var Env = []string{"GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off"}

// tries is how many times a process that died is run: callgrind's abort
// and a Go runtime failing under valgrind are rare, and a second run of
// the same command counts the same.
const tries = 3

// Run runs valgrind with args (its options, then the counted command) with
// env and Env added to this process's environment, stdout to stdout, in a
// process group of its own, so a terminal's signals reach only perfrun,
// which stops it through ctx. done, if set, reads valgrind's own output
// of a run that succeeded. A process that fails is run again, up to three
// times; the error says why each failed, in callgrind's or the Go
// runtime's own words.
func Run(ctx context.Context, args, env []string, stdout io.Writer, done func(stderr []byte) error) error {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return fmt.Errorf("valgrind is not installed (apt-get install valgrind)")
	}
	var why []string
	for range tries {
		var out, stderr bytes.Buffer
		// --vgdb=no: no gdbserver FIFOs and shared memory in /tmp, which
		// an interrupted count would leave behind; perfrun uses none.
		cmd := exec.CommandContext(ctx, "valgrind", append([]string{"--vgdb=no"}, args...)...)
		cmd.Env = append(append(os.Environ(), env...), Env...)
		cmd.Stdout, cmd.Stderr = &out, &stderr
		procgroup.Own(cmd)
		err := cmd.Run()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			if done != nil {
				if err := done(stderr.Bytes()); err != nil {
					return err
				}
			}
			_, err = stdout.Write(out.Bytes())
			return err
		}
		reason, again := Reason(err, stderr.Bytes())
		why = append(why, reason)
		if !again {
			break
		}
	}
	return &Error{Reasons: why}
}

// An Error is a count that could not be had: why each try failed (a
// failure that would only repeat is tried once).
type Error struct{ Reasons []string }

func (e *Error) Error() string {
	if len(e.Reasons) == 1 {
		return "callgrind: " + e.Reasons[0]
	}
	return fmt.Sprintf("callgrind failed %d times: %s", len(e.Reasons), strings.Join(dedupe(e.Reasons), "; "))
}

// ErrCount matches every Error.
var ErrCount = errors.New("callgrind failed")

func (e *Error) Is(target error) bool { return target == ErrCount }

func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

var (
	assertion = regexp.MustCompile(`Assertion '[^']*' failed`)
	goFailure = regexp.MustCompile(`(?m)^(fatal error: .*|panic: .*|SIG[A-Z]+: .*|runtime: .*)$`)
)

// Reason says in a line why a valgrind run failed: callgrind's assertion,
// the Go runtime's fatal error, else the counted program's own last word
// (its last line that is not valgrind's). transient says whether the
// failure may not happen again: callgrind's abort, or the Go runtime
// dying under valgrind; a program that refuses its arguments refuses them
// every time.
func Reason(err error, stderr []byte) (reason string, transient bool) {
	if m := assertion.Find(stderr); m != nil {
		return "callgrind aborted (" + string(m) + ")", true
	}
	if m := goFailure.Find(stderr); m != nil {
		return fmt.Sprintf("the counted process failed (%v): %s", err, m), true
	}
	return fmt.Sprintf("%v: %s", err, programLine(stderr)), false
}

var valgrindLine = regexp.MustCompile(`^(==|--)\d+(==|--)`)

// programLine is the last line of stderr that valgrind did not print, else
// its last line.
func programLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(string(lines[i])); l != "" && !valgrindLine.MatchString(l) {
			return l
		}
	}
	return strings.TrimSpace(string(lines[len(lines)-1]))
}
