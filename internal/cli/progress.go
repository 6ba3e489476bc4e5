package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/perfrun/perfrun/harness"
)

// interruptible returns a context that the first Ctrl-C (or SIGTERM)
// cancels, remembering the signal for the exit code; a second one kills
// the process as usual.
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			if sig, ok := s.(syscall.Signal); ok {
				interruptedBy.Store(int32(sig))
			}
			cancel()
		case <-ctx.Done():
		}
		signal.Stop(ch)
	}()
	return ctx, cancel
}

// childGrace is how long an interrupted child perfrun (bisect's ab,
// backfill's run) has to remove its worktrees and files before it is killed.
const childGrace = time.Minute

// interruptedBy is the signal that interrupted this perfrun, or 0: the
// command then exits 128 + its number, as a shell reports a process the
// signal ended, whatever the command made of its cancelled context.
var interruptedBy atomic.Int32

// progressPrinter shows a run's progress: a line redrawn in place on a
// terminal, else a line per round.
func progressPrinter(w io.Writer) func(harness.Progress) {
	tty := isTerminal(w)
	lastRound := 0
	return func(p harness.Progress) {
		eta := ""
		if d := p.ETA(); d > 0 {
			eta = " ETA " + d.String()
		}
		round := fmt.Sprintf("round %d/%d", p.Round, p.Rounds)
		if p.Extra != "" {
			round = fmt.Sprintf("added round %d, %s", p.Round-p.Rounds, p.Extra)
		}
		if tty {
			clearLineOn(w)
			fmt.Fprintf(w, "[%s] %d/%d%s  %s", round, p.Done+1, p.Total, eta, p.Cell.Name())
			return
		}
		if p.Round != lastRound {
			lastRound = p.Round
			fmt.Fprintf(w, "perfrun: %s (%d cells done of %d)%s\n", round, p.Done, p.Total, eta)
		}
	}
}

func isTerminal(w io.Writer) bool {
	if p, ok := w.(printable); ok {
		w = p.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
