package foreign

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/procgroup"
	"github.com/perfrun/perfrun/records"
)

// Output is what one run of a command left: what it printed (the first
// megabyte of each stream), how long it took from start to exit, and its
// process state (its CPU time).
type Output struct {
	Stdout, Stderr []byte
	Wall           time.Duration
	State          *os.ProcessState
}

// Run runs args in a process group of its own, which ends with it (a
// child it left holding the output open is gone when Run returns). A
// failure carries the tail of what it printed; a cancelled ctx returns
// ctx.Err().
func Run(ctx context.Context, args []string) (Output, error) {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stdout, stderr boundedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	procgroup.Own(cmd)
	start := time.Now()
	err := cmd.Run()
	out := Output{Wall: time.Since(start), State: cmd.ProcessState}
	procgroup.End(cmd)
	out.Stdout, out.Stderr = stdout.Bytes(), stderr.Bytes()
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited well; a child it left kept its output open, and is gone now
	}
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if err != nil {
		return out, fmt.Errorf("%s: %w%s", strings.Join(args, " "), err, Tail(out.Stderr, out.Stdout))
	}
	return out, nil
}

// outputLimit bounds what perfrun keeps of a command's output.
const outputLimit = 1 << 20

// boundedBuffer keeps the first outputLimit bytes written to it.
type boundedBuffer struct{ bytes.Buffer }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := outputLimit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Tail is the last lines of the first non-empty output, for an error.
func Tail(outs ...[]byte) string {
	for _, o := range outs {
		o = bytes.TrimSpace(o)
		if len(o) == 0 {
			continue
		}
		lines := strings.Split(string(o), "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		for i, l := range lines {
			lines[i] = records.OneLine(l)
		}
		return "; it printed:\n\t" + strings.Join(lines, "\n\t")
	}
	return ""
}
