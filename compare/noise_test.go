package compare

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// noise is a model of one cell's windows in an A/B campaign paired at the
// window, fitted to real A/A campaigns of this project's 2-core VM
// (results/archive/campaigns): each arm process has an effect of its own
// (process: its heap, its neighbour of the moment), each window one of
// its own (window), and a fraction tail of windows ran slower than the
// arms they were paired with by a factor drawn from slow — the host's
// short stretches the probe did not set aside. What a triple's three
// windows share cancels in the statistic and is not modelled.
//
// layout is the part of process that is the binary's code layout: the
// same in every process of one binary (fitLayout). With a fresh layout for
// every arm of every round it is one more independent draw per arm and
// round; with a few fixed layouts a side, it repeats round after round.
type noise struct {
	process, window float64 // sd of the log effects
	layout          float64 // sd of a binary's layout effect, part of process
	tail            float64
	slow            []float64 // slowdown factors of tail windows, resampled
	inner           int       // windows per arm and round; the arm's value is their median
}

func (m noise) value(r *rand.Rand, truth float64, process float64) float64 {
	inner := max(m.inner, 1)
	w := make([]float64, inner)
	for i := range w {
		w[i] = r.NormFloat64() * m.window
		if len(m.slow) > 0 && r.Float64() < m.tail {
			w[i] += math.Log(m.slow[r.IntN(len(m.slow))])
		}
	}
	return truth * math.Exp(process+records.Median(w))
}

// armValue is one arm's value for a round: a fresh process of a fresh
// layout, inner windows.
func (m noise) armValue(r *rand.Rand, truth float64) float64 {
	return m.value(r, truth, r.NormFloat64()*m.process)
}

// armValueOf is one arm's value for a round in a fresh process of a binary
// whose layout moved it by layout (log).
func (m noise) armValueOf(r *rand.Rand, truth, layout float64) float64 {
	within := math.Sqrt(max(0, m.process*m.process-m.layout*m.layout))
	return m.value(r, truth, layout+r.NormFloat64()*within)
}

// A class of cells shares one fitted noise: one thread; two threads of a
// lock-based design; two threads of the lock-free one.
type class string

const (
	oneThread  class = "1 thread"
	twoLocked  class = "2 threads, lock-based"
	twoLockFre class = "2 threads, lock-free"
)

func classOf(cell string) class {
	switch {
	case strings.HasSuffix(cell, "/threads=1"):
		return oneThread
	case strings.Contains(cell, "/impl=rcu/"):
		return twoLockFre
	}
	return twoLocked
}

// campaignWindow is one row of a campaign's windows.csv.
type campaignWindow struct {
	cell, arm string
	round     int
	value     float64
	aside     bool
}

// readCampaigns reads every A/A campaign's windows under dir (aa-*.csv).
func readCampaigns(dir string) (map[string][]campaignWindow, error) {
	files, err := filepath.Glob(filepath.Join(dir, "aa-*.csv"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no A/A campaigns in %s (%v)", dir, err)
	}
	out := make(map[string][]campaignWindow)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		for _, row := range rows[1:] {
			round, _ := strconv.Atoi(row[1])
			v, _ := strconv.ParseFloat(row[3], 64)
			out[filepath.Base(f)] = append(out[filepath.Base(f)], campaignWindow{cell: row[0], round: round, arm: row[2], value: v, aside: row[5] != ""})
		}
	}
	return out, nil
}

// fitNoise fits each class's noise to the kept windows of A/A campaigns.
// Windows come in triples (one per arm, back to back, in file order);
// a window's residual is its log value less its triple's mean (what the
// triple shared); an arm process's effect is the median residual of its
// windows in the round, and a window's own effect what is left. Removing
// a mean of three leaves 2/3 of a variance, which the fit restores.
func fitNoise(campaigns map[string][]campaignWindow, inner int) map[class]noise {
	procs := make(map[class][]float64)
	wins := make(map[class][]float64)
	for k, r := range residuals(campaigns) {
		p, c := records.Median(r), classOf(k.cell)
		procs[c] = append(procs[c], p)
		for _, x := range r {
			wins[c] = append(wins[c], x-p)
		}
	}
	out := make(map[class]noise)
	for c, w := range wins {
		window := robustSD(w) * math.Sqrt(1.5)
		m := noise{window: window, inner: inner}
		for _, x := range w {
			if x > 3*window {
				m.slow = append(m.slow, math.Exp(x))
			}
		}
		slices.Sort(m.slow)
		m.tail = float64(len(m.slow)) / float64(len(w))
		medianVar := math.Pi / 2 / float64(inner) // of a median of inner normals
		m.process = math.Sqrt(max(0, 1.5*math.Pow(robustSD(procs[c]), 2)-window*window*medianVar))
		out[c] = m
	}
	return out
}

// fitLayout fits each class's layout component to A/A campaigns run with
// three fixed layouts a revision rotated over the rounds (round r: base on
// base's layout r mod 3, base again on (r+1) mod 3, head on head's r mod
// 3), where every layout ran in several processes: a one-way
// random-effects analysis of the arm processes' effects (as fitNoise makes
// them) grouped by layout, per campaign and cell, pooled per class: the
// variance between layouts beyond what the processes within one explain.
func fitLayout(campaigns map[string][]campaignWindow) map[class]float64 {
	type group struct{ campaign, cell, layout string }
	effects := make(map[group][]float64)
	for k, r := range residuals(campaigns) {
		layout := fmt.Sprintf("base %d", k.round%3)
		switch k.arm {
		case ArmHead:
			layout = fmt.Sprintf("head %d", k.round%3)
		case ArmBase2:
			layout = fmt.Sprintf("base %d", (k.round+1)%3)
		}
		g := group{k.campaign, k.cell, layout}
		effects[g] = append(effects[g], records.Median(r))
	}
	type cellKey struct{ campaign, cell string }
	byCell := make(map[cellKey][][]float64)
	for g, e := range effects {
		byCell[cellKey{g.campaign, g.cell}] = append(byCell[cellKey{g.campaign, g.cell}], e)
	}
	between, weight := make(map[class]float64), make(map[class]float64)
	for k, groups := range byCell {
		v, df, ok := layoutVariance(groups)
		if !ok {
			continue
		}
		c := classOf(k.cell)
		between[c] += v * df
		weight[c] += df
	}
	out := make(map[class]float64)
	for c, w := range weight {
		// Removing a triple's mean leaves 2/3 of a variance, as in fitNoise.
		out[c] = math.Sqrt(max(0, 1.5*between[c]/w))
	}
	return out
}

// layoutVariance is the one-way random-effects (ANOVA) estimate of the
// variance between groups beyond what the spread within them explains,
// with its degrees of freedom; false with too few groups or values.
func layoutVariance(groups [][]float64) (v, df float64, ok bool) {
	var n, sum, sumSq float64
	var ssw, dfw float64
	var counts []float64
	var means []float64
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		m := 0.0
		for _, x := range g {
			m += x
		}
		m /= float64(len(g))
		for _, x := range g {
			ssw += (x - m) * (x - m)
		}
		dfw += float64(len(g) - 1)
		counts, means = append(counts, float64(len(g))), append(means, m)
		n += float64(len(g))
		sum += m * float64(len(g))
		sumSq += float64(len(g)) * float64(len(g))
	}
	G := float64(len(means))
	if G < 2 || dfw < 1 {
		return 0, 0, false
	}
	grand := sum / n
	var ssb float64
	for i, m := range means {
		ssb += counts[i] * (m - grand) * (m - grand)
	}
	msb, msw := ssb/(G-1), ssw/dfw
	n0 := (n - sumSq/n) / (G - 1)
	return max(0, (msb-msw)/n0), G - 1, true
}

// armRound is one arm process of a campaign's cell: an arm in a round.
type armRound struct {
	campaign, cell string
	round          int
	arm            string
}

// residuals are the kept windows of A/A campaigns by arm process: each
// window's log value less its triple's mean (what the triple shared).
// Windows come in triples, one per arm, back to back in file order.
func residuals(campaigns map[string][]campaignWindow) map[armRound][]float64 {
	resid := make(map[armRound][]float64)
	for name, ws := range campaigns {
		var kept []campaignWindow
		for _, w := range ws {
			if !w.aside && w.value > 0 {
				kept = append(kept, w)
			}
		}
		for i := 0; i+3 <= len(kept); {
			t := kept[i : i+3]
			if t[0].cell != t[2].cell || t[0].round != t[2].round || t[0].arm == t[1].arm || t[1].arm == t[2].arm || t[0].arm == t[2].arm {
				i++ // not a triple: skip a window and look again
				continue
			}
			mean := (math.Log(t[0].value) + math.Log(t[1].value) + math.Log(t[2].value)) / 3
			for _, w := range t {
				k := armRound{name, w.cell, w.round, w.arm}
				resid[k] = append(resid[k], math.Log(w.value)-mean)
			}
			i += 3
		}
	}
	return resid
}
