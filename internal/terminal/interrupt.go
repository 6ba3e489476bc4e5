package terminal

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// Interruptible returns a context that the first Ctrl-C (or SIGTERM)
// cancels, remembering the signal for the exit code; a second one kills
// the process as usual.
func Interruptible(parent context.Context) (context.Context, context.CancelFunc) {
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

// ChildGrace is how long an interrupted child perfrun (bisect's ab,
// backfill's run) has to remove its worktrees and files before it is killed.
const ChildGrace = time.Minute

// interruptedBy is the signal that interrupted this perfrun, or 0: the
// command then exits 128 + its number, as a shell reports a process the
// signal ended, whatever the command made of its cancelled context.
var interruptedBy atomic.Int32

// InterruptedBy is the signal that interrupted this command, or 0.
func InterruptedBy() int { return int(interruptedBy.Load()) }

// Forget forgets a signal an earlier command took: each command begins
// uninterrupted.
func Forget() { interruptedBy.Store(0) }
