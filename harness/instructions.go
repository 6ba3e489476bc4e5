package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
)

var collected = regexp.MustCompile(`Collected : (\d+)`)

// processes is how many processes the median instruction count is over.
const processes = 3

// Instructions counts the instructions one operation of a cell executes:
// it runs command (a perfrun that performs n operations of the cell, one
// thread, after its untimed setup) under valgrind's callgrind with
// GOMAXPROCS=1 and GOGC=off. With only set, callgrind collects inside that
// function alone, so setup never enters the count and a run gives count/n;
// the result is the median over three processes. Without it, the whole process is counted at n and 2n operations
// so setup and start-up cancel in the difference — but the two runs are
// two processes, and whatever varies per process (hash seeds) comes back
// amplified about threefold, so prefer only. Asynchronous preemption is
// off: its SIGURG signals trip an assertion in callgrind's signal handling
// (seen here in 1 of 4 runs) and add instructions that depend on wall time.
// Instruction counts do not depend on what else the machine is doing,
// which makes them an exact metric to gate on.
func Instructions(ctx context.Context, command func(ops int) []string, only string, n int) (float64, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return 0, fmt.Errorf("valgrind is not installed (apt-get install valgrind)")
	}
	count := func(ops int) (float64, error) {
		args := []string{"--tool=callgrind", "--callgrind-out-file=/dev/null"}
		if only != "" {
			args = append(args, "--toggle-collect="+only)
		}
		args = append(args, command(ops)...)
		cmd := exec.CommandContext(ctx, "valgrind", args...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("valgrind: %v: %s", err, lastLine(stderr.Bytes()))
		}
		m := collected.FindSubmatch(stderr.Bytes())
		if m == nil {
			return 0, fmt.Errorf("valgrind printed no instruction count")
		}
		return strconv.ParseFloat(string(m[1]), 64)
	}
	if only != "" {
		// Designs that hash with a per-process seed run slightly different
		// code in each process (hashmap: 781-786 instructions/op, rcu:
		// 810-825, at certs=32); the median of three processes keeps a
		// gate on this metric from seeing a seed as a regression.
		var per []float64
		for range processes {
			c, err := count(n)
			if err != nil {
				return 0, err
			}
			per = append(per, c/float64(n))
		}
		slices.Sort(per)
		return per[len(per)/2], nil
	}
	a, err := count(n)
	if err != nil {
		return 0, err
	}
	b, err := count(2 * n)
	if err != nil {
		return 0, err
	}
	return (b - a) / float64(n), nil
}

func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}
