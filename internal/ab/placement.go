package ab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// A small runner's two virtual CPUs are not always the same pair of
// physical cores: for a while its host may give them a pair where a line
// moves between them fast, and then one where it moves many times slower
// (results/scaling/runner/placement has the runner's). A change whose
// cost is a shared line costs at 2 threads what the pair charges, and a
// look that mixed pairs reads between the two. So a look keeps the
// windows of the pair most of its windows ran on, as the harness keeps
// one state of its floor probe; each window's pair is told by the
// transfer probe after it.
const (
	// placementApart is how many times apart two windows' transfers are
	// where their threads ran on different pairs of cores.
	placementApart = 2.0
	// placementSlack is added to each transfer before they are compared,
	// so that two windows of a near pair, a few nanoseconds apart in tens,
	// are not apart, nor a probe of an earlier perfrun, whose one write
	// read a near pair to the clock's step.
	placementSlack = 20e-9
)

// placed is ws, a look's windows of one cell, with those set aside whose
// transfer probe puts their threads on another pair of cores than the
// median of the look's windows kept does. Windows without a probe are as
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
		if r := (w.Transfer + placementSlack) / (m + placementSlack); r > placementApart || r < 1/placementApart {
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
