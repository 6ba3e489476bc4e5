package terminal

import (
	"fmt"
	"io"
	"os"

	"github.com/perfrun/perfrun/harness"
)

// Progress shows a run's progress: a line redrawn in place on a
// terminal, else a line per round.
func Progress(w io.Writer) func(harness.Progress) {
	tty := IsTerminal(w)
	lastRound := 0
	return func(p harness.Progress) {
		eta := ""
		if d := p.ETA(); d > 0 {
			eta = " ETA " + d.String()
		}
		round := fmt.Sprintf("round %d/%d", p.Round, p.Rounds)
		if p.Extra != "" {
			round = fmt.Sprintf("added round %d, %s", p.Round-p.Rounds, p.Extra)
			// An added round's pace says nothing of how many more come:
			// their budget does.
			eta = ""
			if p.Left > 0 {
				eta = " up to " + p.Left.String() + " more"
			}
		}
		if tty {
			ClearLine(w)
			fmt.Fprintf(w, "[%s] %d/%d%s  %s", round, p.Done+1, p.Total, eta, p.Cell.Name())
			return
		}
		if p.Round != lastRound {
			lastRound = p.Round
			fmt.Fprintf(w, "perfrun: %s (%d cells done of %d)%s\n", round, p.Done, p.Total, eta)
		}
	}
}

func IsTerminal(w io.Writer) bool {
	if p, ok := w.(Printable); ok {
		w = p.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
