package subcommand

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/records"
)

// Exit codes, so CI never reads a crash as a regression. A verdict's
// (ExitOK, ExitRegression, ExitInconclusive) is compare.Verdict.Exit's.
const (
	ExitOK           = 0 // success; a gate that says PASS or IMPROVED
	ExitRegression   = 1 // a gate that says REGRESSION, MISSING or TRADE
	ExitUsage        = 2 // bad flags, arguments or input files
	ExitInconclusive = 3 // a gate whose data cannot decide
	ExitFailure      = 4 // the tool failed: a revision that does not build, an I/O error, a wrong answer
	// An interrupted command exits 128 + the signal's number (130 for
	// Ctrl-C, 143 for SIGTERM), as the shell reports it, never a verdict's code.
	ExitSignal = 128
)

// ExitError carries an exit code; a nil err means the message was already
// printed (by the flag package, or as a verdict).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// UsageError reports bad flags, arguments or input.
func UsageError(format string, args ...any) error {
	return &ExitError{ExitUsage, fmt.Errorf(format, args...)}
}

// AsUsage marks err, if any, as the user's to fix.
func AsUsage(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{ExitUsage, err}
}

// ErrHelp is -h: the usage was printed; exit 0.
var ErrHelp = &ExitError{Code: ExitOK}

// ExitCode prints err, prefixed with the program and command, and turns
// it into the exit code: 4 for any error that does not say otherwise.
func (p *Program) ExitCode(c *Command, err error, stderr io.Writer) int {
	if sig := terminal.InterruptedBy(); sig != 0 {
		fmt.Fprintf(stderr, "perfrun: %s: %s\n", c.Name, interruptMessage(err))
		return ExitSignal + int(sig)
	}
	if err == nil {
		return ExitOK
	}
	code := ExitFailure
	var e *ExitError
	if errors.As(err, &e) {
		code = e.Code
		if e.Err == nil {
			return code
		}
	} else if slices.ContainsFunc(p.InputErrors, func(s error) bool { return errors.Is(err, s) }) {
		code = ExitUsage
	}
	fmt.Fprintf(stderr, "perfrun: %s: %s\n", c.Name, Message(err))
	return code
}

// interruptMessage is what an interrupted command says: "interrupted",
// then what it kept, without the cancelled context's or the interrupted
// child's own words for the interrupt.
func interruptMessage(err error) string {
	msg := ""
	if err != nil {
		msg = Message(err)
	}
	for _, raw := range []string{"context canceled", "signal: interrupt", "signal: terminated"} {
		msg = strings.ReplaceAll(msg, ": "+raw, "")
		msg = strings.TrimPrefix(msg, raw)
	}
	// "interrupted" once, at the front, wherever a command said it.
	msg = strings.ReplaceAll(msg, "interrupted: ", "")
	msg = strings.Trim(strings.TrimSuffix(strings.TrimPrefix(strings.Trim(msg, " :"), "interrupted"), "interrupted"), " :")
	if msg == "" {
		return "interrupted"
	}
	return "interrupted: " + msg
}

// Message is err as the terminal shows it: a tool's output quoted in it
// keeps its lines, each with its controls escaped, and a file's name that
// holds a control (which Go's file errors print raw) is quoted, so a
// newline in a name cannot pass for a line of its own.
func Message(err error) string {
	msg := err.Error()
	for _, p := range paths(err) {
		if records.OneLine(p) != p {
			msg = strings.ReplaceAll(msg, p, strconv.Quote(p))
		}
	}
	return records.Lines(msg)
}

// paths is every file name a file error in err's chain names.
func paths(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		if pe, ok := e.(*fs.PathError); ok {
			out = append(out, pe.Path)
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			if next := u.Unwrap(); next != nil {
				walk(next)
			}
		case interface{ Unwrap() []error }:
			for _, next := range u.Unwrap() {
				walk(next)
			}
		}
	}
	walk(err)
	return out
}
