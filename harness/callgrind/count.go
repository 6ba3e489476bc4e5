package callgrind

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
)

var collected = regexp.MustCompile(`Collected : (\d+)`)

// Instructions counts the instructions one operation of a cell executes,
// once in each of procs processes: it runs command (a perfrun that
// performs n operations of the cell, one thread, after its untimed setup)
// under callgrind (see Count). The counts are returned one per process: a
// design that hashes with a per-process seed runs different code in each,
// and a gate must see that spread to test the counts as a sample rather
// than trust one.
func Instructions(ctx context.Context, procs int, command func(ops int) []string, n int) ([]float64, error) {
	var per []float64
	for range max(procs, 1) {
		c, err := Count(ctx, command(n), nil)
		if err != nil {
			return nil, err
		}
		per = append(per, c/float64(n))
	}
	return per, nil
}

// Count runs argv — a perfrun whose operations run through CountOps —
// under valgrind's callgrind with env and Env added to its
// environment, and returns the instructions collected inside CountedOps,
// so setup never enters the count. Callgrind instruments from the moment
// CountOps asks it to (setup runs at valgrind's plain speed, several times
// faster); a binary from before that request counts nothing that way and
// is counted again instrumented throughout.
func Count(ctx context.Context, argv, env []string) (float64, error) {
	late := Requests
	for {
		args := []string{"--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=" + countedSymbol()}
		if late {
			args = append(args, "--instr-atstart=no")
		}
		c, err := collectedBy(ctx, append(args, argv...), env)
		if err != nil {
			return 0, err
		}
		if c > 0 {
			return c, nil
		}
		if !late {
			return 0, fmt.Errorf("valgrind collected no instructions inside %s: %s ran none of its operations through it, or callgrind could not find it", countedSymbol(), argv[0])
		}
		late = false
	}
}

// Countable says whether callgrind can count the program at path: its
// symbol table must name CountedOps, which --toggle-collect finds by name.
// A binary linked with -s (go run's, go test's) has none.
func Countable(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("callgrind counts an ELF program: %w", err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return err
	}
	want := countedSymbol()
	for _, s := range syms {
		if s.Name == want {
			return nil
		}
	}
	return fmt.Errorf("%s has no symbol %s for callgrind to count inside (a binary linked with -s, as go run links, has no symbol table)", path, want)
}

// collectedBy runs valgrind with args and returns the instructions it
// says it collected.
func collectedBy(ctx context.Context, args, env []string) (float64, error) {
	var stdout bytes.Buffer
	var total float64
	err := Run(ctx, args, env, &stdout, func(stderr []byte) error {
		m := collected.FindSubmatch(stderr)
		if m == nil {
			return fmt.Errorf("valgrind printed no instruction count")
		}
		var err error
		total, err = strconv.ParseFloat(string(m[1]), 64)
		return err
	})
	return total, err
}

// CountOps runs n operations of op for Count: it starts callgrind's
// instrumentation and runs them through CountedOps, in batches with a
// yield between them outside CountedOps (Batches), on one
// thread. A perfrun that performs the operations Count asks for must run
// them through it.
func CountOps(op func(n int) error, n int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	StartInstrumentation()
	return Batches(n, func(k int) error { return CountedOps(op, k) }, nil)
}

// CountedOps runs n operations of op: the only code callgrind counts
// (--toggle-collect), so neither setup nor the runtime's other threads
// enter a count.
//
//go:noinline
func CountedOps(op func(n int) error, n int) error { return op(n) }

// countedSymbol is CountedOps's symbol, as callgrind names it.
func countedSymbol() string {
	return runtime.FuncForPC(reflect.ValueOf(CountedOps).Pointer()).Name()
}
