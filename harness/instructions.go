package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

var collected = regexp.MustCompile(`Collected : (\d+)`)

// Processes is how many processes count the instructions of a cell: a gate
// needs at least five a side to treat the counts as a sample.
const Processes = 5

// Instructions counts the instructions one operation of a cell executes,
// once in each of Processes processes: it runs command (a perfrun that
// performs n operations of the cell, one thread, after its untimed setup)
// under valgrind's callgrind with GOMAXPROCS=1 and GOGC=off, collecting
// only inside the function named only, so setup never enters the count.
// The counts are returned one per process: a design that hashed with a
// per-process seed ran different code in each (hashmap 781–786
// instructions/op, rcu 810–825, at certs=32, before the models' hashing
// was fixed), and a gate must see that spread to test the counts as a
// sample rather than trust one; fixed, they agree within 0.006%. Asynchronous preemption is off:
// its SIGURG signals trip an assertion in callgrind's signal handling
// (seen here in 1 of 4 runs) and add instructions that depend on wall
// time.
func Instructions(ctx context.Context, command func(ops int) []string, only string, n int) ([]float64, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return nil, fmt.Errorf("valgrind is not installed (apt-get install valgrind)")
	}
	var per []float64
	for range Processes {
		args := append([]string{"--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=" + only}, command(n)...)
		cmd := exec.CommandContext(ctx, "valgrind", args...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("valgrind: %v: %s", err, lastLine(stderr.Bytes()))
		}
		m := collected.FindSubmatch(stderr.Bytes())
		if m == nil {
			return nil, fmt.Errorf("valgrind printed no instruction count")
		}
		c, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			return nil, err
		}
		per = append(per, c/float64(n))
	}
	return per, nil
}

func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}
