package callgrind

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/internal/scratch"
)

var (
	collected  = regexp.MustCompile(`Collected : ([\d ]+)`)
	eventNames = regexp.MustCompile(`Events    : ([A-Za-z0-9 ]+)`)
)

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

// Traffic is what a count sees of an operation beside its instructions:
// the misses of a simulated cache — of a fixed geometry (CacheGeometry),
// so that a count is the same on every machine — and the system calls,
// per operation. A change that adds memory traffic or a system call but
// no instruction shows here.
type Traffic struct {
	L1Misses, LLMisses, Syscalls float64
}

// CacheGeometry is the cache callgrind simulates: 32 KiB 8-way first-level
// instruction and data caches and an 8 MiB 16-way last level, 64-byte
// lines — a server core's share, whatever the counting machine reports
// (this project's VM reports a 512 MiB last level, which no lookup
// misses).
var CacheGeometry = []string{"--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"}

// CountTraffic is Count with the cache simulated and the system calls
// collected: the instructions collected inside CountedOps, and what they
// missed in the cache and called of the kernel, totals over the run.
// The system calls are those the counted code made (see program): the
// ones callgrind books to the counted thread but another thread made are
// set aside.
func CountTraffic(ctx context.Context, argv, env []string) (float64, Traffic, error) {
	dir, err := scratch.Dir("count-")
	if err != nil {
		return 0, Traffic{}, err
	}
	defer scratch.Remove(dir)
	out := filepath.Join(dir, "callgrind.out")
	ev, err := countEvents(ctx, argv, env, append(CacheGeometry, "--collect-systime=yes", "--compress-strings=no", "--callgrind-out-file="+out))
	if err != nil {
		return 0, Traffic{}, err
	}
	t := Traffic{
		L1Misses: ev["I1mr"] + ev["D1mr"] + ev["D1mw"],
		LLMisses: ev["ILmr"] + ev["DLmr"] + ev["DLmw"],
	}
	if ev["sysCount"] > 0 {
		// Most counts make none: the program is read only to tell whose
		// calls those booked are.
		prog, err := readProgram(argv[0])
		if err != nil {
			return 0, Traffic{}, err
		}
		f, err := os.Open(out)
		if err != nil {
			return 0, Traffic{}, err
		}
		defer f.Close()
		booked, waited, err := costs(f, "sysCount", waits)
		if err != nil {
			return 0, Traffic{}, err
		}
		t.Syscalls = prog.syscalls(booked, waited)
	}
	return ev["Ir"], t, nil
}

// Count runs argv — a perfrun whose operations run through CountOps —
// under valgrind's callgrind with env and Env added to its
// environment, and returns the instructions collected inside CountedOps,
// so setup never enters the count. Callgrind instruments from the moment
// CountOps asks it to (setup runs at valgrind's plain speed, several times
// faster); a binary from before that request counts nothing that way and
// is counted again instrumented throughout.
func Count(ctx context.Context, argv, env []string) (float64, error) {
	ev, err := countEvents(ctx, argv, env, nil)
	return ev["Ir"], err
}

// countEvents runs argv under callgrind with the extra options and
// returns every event it collected inside CountedOps, by callgrind's name
// (Ir, the instructions; D1mr, ...).
func countEvents(ctx context.Context, argv, env, extra []string) (map[string]float64, error) {
	late := Requests
	for {
		// A later --callgrind-out-file in extra wins.
		args := append([]string{"--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=" + countedSymbol()}, extra...)
		if late {
			args = append(args, "--instr-atstart=no")
		}
		ev, err := collectedBy(ctx, append(args, argv...), env)
		if err != nil {
			return nil, err
		}
		if ev["Ir"] > 0 {
			return ev, nil
		}
		if !late {
			return nil, fmt.Errorf("valgrind collected no instructions inside %s: %s ran none of its operations through it, or callgrind could not find it", countedSymbol(), argv[0])
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

// collectedBy runs valgrind with args and returns the events it says it
// collected, by name: its "Events :" line names them, its "Collected :"
// line gives their totals in the same order.
func collectedBy(ctx context.Context, args, env []string) (map[string]float64, error) {
	var stdout bytes.Buffer
	var ev map[string]float64
	err := Run(ctx, args, env, &stdout, func(stderr []byte) error {
		var err error
		ev, err = Events(stderr)
		return err
	})
	return ev, err
}

// Events reads callgrind's summary from its stderr: each event it
// collected, by name.
func Events(stderr []byte) (map[string]float64, error) {
	names := eventNames.FindSubmatch(stderr)
	m := collected.FindSubmatch(stderr)
	if m == nil {
		return nil, fmt.Errorf("valgrind printed no instruction count")
	}
	values := strings.Fields(string(m[1]))
	keys := []string{"Ir"}
	if names != nil {
		keys = strings.Fields(string(names[1]))
	}
	// Callgrind leaves out the zero totals at the end of the line (a run
	// that made no system call prints no sysCount).
	if len(values) > len(keys) {
		return nil, fmt.Errorf("valgrind named %d events and collected %d", len(keys), len(values))
	}
	ev := make(map[string]float64, len(keys))
	for i, k := range keys {
		if i >= len(values) {
			ev[k] = 0
			continue
		}
		v, err := strconv.ParseFloat(values[i], 64)
		if err != nil {
			return nil, fmt.Errorf("valgrind's count of %s, %q: %w", k, values[i], err)
		}
		ev[k] = v
	}
	return ev, nil
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
