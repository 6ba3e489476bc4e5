package changepoint

import (
	"math/rand/v2"
	"slices"
	"sort"
)

// Options tune the search. The zero value gives the defaults.
type Options struct {
	// Alpha is the significance level of each split's permutation test:
	// a split is kept when at most this fraction of random reorderings of
	// the series gives as large a statistic. Default 0.01.
	Alpha float64
	// Permutations is the number of reorderings per test. Default 199;
	// the smallest p-value it can show is 1/(Permutations+1).
	Permutations int
	// MinSize is the fewest points a segment may have, at least 2; a
	// step becomes visible once this many points follow it. Default 3.
	MinSize int
	// Seed seeds the reorderings, so a series always gives one answer.
	Seed uint64
	// Done, if set, stops the search once it is closed (an interrupt):
	// Detect then returns no steps.
	Done <-chan struct{}
}

// MaxPermutations bounds Permutations: a p-value resolution of 1e-5 is
// finer than any level a history is searched at.
const MaxPermutations = 99999

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = 0.01
	}
	if o.Permutations <= 0 {
		o.Permutations = 199
	}
	o.Permutations = min(o.Permutations, MaxPermutations)
	if o.MinSize < 2 {
		o.MinSize = 3
	}
	return o
}

// Change is one step found in a series.
type Change struct {
	// Index is the first point after the step.
	Index int
	// Q is the split's E-divisive statistic; P its permutation p-value.
	Q, P float64
}

// Detect returns the steps in x, in order of position. Every segment —
// the whole series, then the parts each kept split leaves — is tested
// once at its best split, and split when the test passes; it ends when no
// segment's best split passes.
func Detect(x []float64, o Options) []Change {
	o = o.withDefaults()
	n := len(x)
	if n < 2*o.MinSize {
		return nil
	}
	s := newSearch(x, o)
	pending := []*segment{s.newSegment(0, n)}
	var found []Change
	for len(pending) > 0 {
		g := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if g.tau == 0 || g.q <= 0 {
			continue
		}
		p := s.pValue(g)
		if s.stopped() {
			return nil
		}
		if p > o.Alpha {
			continue
		}
		found = append(found, Change{Index: g.lo + g.tau, Q: g.q, P: p})
		pending = append(pending, s.newSegment(g.lo, g.lo+g.tau), s.newSegment(g.lo+g.tau, g.hi))
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Index < found[j].Index })
	return found
}

// stopped says whether Done is closed.
func (s *search) stopped() bool {
	select {
	case <-s.o.Done:
		return true
	default:
		return false
	}
}

// search is one series' detection state.
type search struct {
	o   Options
	x   []float64
	rng *rand.Rand
	buf *scratch
}

// newSearch starts a search of x, its reorderings seeded by o.Seed.
func newSearch(x []float64, o Options) *search {
	return &search{o: o, x: x, rng: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15)), buf: newScratch(len(x))}
}

// segment is x[lo:hi] with its best split (tau points from lo; 0 if it
// cannot be split) and the split's statistic, and the ranks of its values
// among themselves, which a reordering carries along.
type segment struct {
	lo, hi int
	tau    int
	q      float64
	ranks  []int
}

func (s *search) newSegment(lo, hi int) *segment {
	g := &segment{lo: lo, hi: hi, ranks: ranksOf(s.x[lo:hi])}
	g.tau, g.q = bestSplit(s.x[lo:hi], g.ranks, s.o.MinSize, s.buf)
	return g
}

// pValue is the permutation test of a segment's best split: the fraction
// of random reorderings of the segment whose best split has a statistic at
// least as large (the search over split points is part of what is
// reordered, so choosing the best split costs the test its due). It stops
// once the answer exceeds Alpha.
func (s *search) pValue(g *segment) float64 {
	v := slices.Clone(s.x[g.lo:g.hi])
	k := slices.Clone(g.ranks)
	r := s.o.Permutations
	atLeast := 0
	for i := 0; i < r; i++ {
		if s.stopped() {
			return 1
		}
		s.rng.Shuffle(len(v), func(a, b int) {
			v[a], v[b] = v[b], v[a]
			k[a], k[b] = k[b], k[a]
		})
		// A reordering that splits the same two sets has the same statistic,
		// however its sums round: a tie counts, as the test means it to.
		if _, q := bestSplit(v, k, s.o.MinSize, s.buf); q >= g.q*(1-1e-9) {
			atLeast++
			if p := float64(atLeast+1) / float64(r+1); p > s.o.Alpha {
				return p
			}
		}
	}
	return float64(atLeast+1) / float64(r+1)
}

// ranksOf gives each value its rank among v (ties in order of position:
// equal values add nothing to a sum of absolute differences either way).
func ranksOf(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	ranks := make([]int, len(v))
	for r, i := range idx {
		ranks[i] = r
	}
	return ranks
}

// scratch is the reusable memory of bestSplit.
type scratch struct {
	left, right []float64
	cnt         []int
	sum         []float64
}

func newScratch(n int) *scratch {
	return &scratch{left: make([]float64, n+1), right: make([]float64, n+1), cnt: make([]int, n+1), sum: make([]float64, n+1)}
}

// bestSplit returns the split tau of v (minSize ≤ tau ≤ len(v)−minSize)
// with the largest E-divisive statistic
//
//	Q = (m·k/(m+k)) · (2/(m·k)·Σ|a−b| − Σ|a−a'|/C(m,2) − Σ|b−b'|/C(k,2))
//
// for a = v[:tau] (m points), b = v[tau:] (k points). The within-sums of
// every prefix and suffix come from adding one point at a time; the cross
// sum is the whole's within-sum less the two sides'.
func bestSplit(v []float64, ranks []int, minSize int, buf *scratch) (int, float64) {
	n := len(v)
	if n < 2*minSize {
		return 0, 0
	}
	within(v, ranks, buf, buf.left, false)
	within(v, ranks, buf, buf.right, true)
	total := buf.left[n]
	bestTau, bestQ := 0, 0.0
	for t := minSize; t <= n-minSize; t++ {
		m, k := float64(t), float64(n-t)
		wa, wb := buf.left[t], buf.right[t]
		cross := total - wa - wb
		e := 2*cross/(m*k) - wa/(m*(m-1)/2) - wb/(k*(k-1)/2)
		if q := m * k / (m + k) * e; q > bestQ {
			bestTau, bestQ = t, q
		}
	}
	return bestTau, bestQ
}

// within fills out[i] with the sum of |a−b| over the pairs of v[:i] (or,
// fromEnd, of v[i:]), keeping counts and sums of the points added so far by
// rank in two Fenwick trees.
func within(v []float64, ranks []int, buf *scratch, out []float64, fromEnd bool) {
	n := len(v)
	cnt, sum := buf.cnt[:n+1], buf.sum[:n+1]
	clear(cnt)
	clear(sum)
	w, total := 0.0, 0.0
	if fromEnd {
		out[n] = 0
	} else {
		out[0] = 0
	}
	for step := 0; step < n; step++ {
		i := step
		if fromEnd {
			i = n - 1 - step
		}
		x, r := v[i], ranks[i]
		below, sumBelow := 0, 0.0
		for j := r; j > 0; j -= j & -j {
			below += cnt[j]
			sumBelow += sum[j]
		}
		above, sumAbove := step-below, total-sumBelow
		w += x*float64(below) - sumBelow + sumAbove - x*float64(above)
		for j := r + 1; j <= n; j += j & -j {
			cnt[j]++
			sum[j] += x
		}
		total += x
		if fromEnd {
			out[i] = w
		} else {
			out[i+1] = w
		}
	}
}
