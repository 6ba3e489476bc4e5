package ab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// placed is ws, a look's windows of one cell, with those set aside whose
// transfer probe puts their threads on another pair of cores than the
// median of the look's windows kept does (records.OtherPair): a look that
// mixed pairs would read between the two. Windows without a probe are as
// they were; those set aside already count for no pair, since a window
// whose thread waited for a CPU may have had both probe threads on one.
func placed(ws []compare.Window) []compare.Window {
	var ts []float64
	for _, w := range ws {
		if w.Transfer >= 0 && w.Aside == "" {
			ts = append(ts, w.Transfer)
		}
	}
	if len(ts) == 0 {
		return ws
	}
	m := records.Median(ts)
	out := slices.Clone(ws)
	for i := range out {
		w := &out[i]
		if w.Aside != "" || w.Transfer < 0 {
			continue
		}
		if records.OtherPair(w.Transfer, m) {
			w.Aside = fmt.Sprintf("%s: a line moved between them in %.0f ns, where the look's windows' moved in %.0f ns",
				otherPair, 1e9*w.Transfer, 1e9*m)
		}
	}
	return out
}

// otherPair begins the reason placed gives a window it sets aside.
const otherPair = "its two threads ran on another pair of cores"

// OtherPairs says, in a sentence, how many of a cell's windows (its looks
// rounds rounds each) ran on another pair of cores than the rest of their
// look and were set aside for it, and what a line cost on each pair; ""
// where none did.
func OtherPairs(name string, ws []compare.Window, rounds int) string {
	looks := map[int][]compare.Window{}
	for _, w := range ws {
		look := w.Round / max(rounds, 1)
		looks[look] = append(looks[look], w)
	}
	var other, kept []float64
	for _, look := range looks {
		for _, w := range placed(look) {
			switch {
			case strings.HasPrefix(w.Aside, otherPair):
				other = append(other, w.Transfer)
			case w.Aside == "" && w.Transfer >= 0:
				kept = append(kept, w.Transfer)
			}
		}
	}
	if len(other) == 0 || len(kept) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %d windows set aside, %s (a line moved between them in %.0f ns, median; in %.0f ns in the %d windows kept)",
		name, len(other), otherPair, 1e9*records.Median(other), 1e9*records.Median(kept), len(kept))
}
