package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Options control a run. Start from DefaultOptions.
type Options struct {
	Rounds int
	Window time.Duration // measured time per cell and round
	Warmup time.Duration // unmeasured time before each window
	Seed   uint64
	// OrderSeed shuffles the cell order of each round; 0 means Seed. A/B
	// runs vary it per process while the corpus (Seed) stays the same.
	OrderSeed uint64
	// Corpus provides the corpus for a cell that wants about cas CAs.
	Corpus func(cas int) (*corpus.Corpus, error)
	// Progress, if set, is called before each cell is measured.
	Progress func(p Progress)
}

// DefaultOptions are what `perfrun run` uses without flags; the CLI takes
// its defaults from here.
var DefaultOptions = Options{Rounds: 5, Window: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Seed: 1}

// Progress describes where a run is.
type Progress struct {
	Round, Rounds int
	Done, Total   int // cells measured so far, of the whole run
	Cell          Cell
	Elapsed       time.Duration
}

// ETA estimates the time left from the pace so far.
func (p Progress) ETA() time.Duration {
	if p.Done == 0 {
		return 0
	}
	return time.Duration(float64(p.Elapsed) / float64(p.Done) * float64(p.Total-p.Done)).Round(time.Second)
}

// Sample is one cell measured in one round.
type Sample struct {
	Cell    Cell
	Round   int
	Metrics []workloads.Metric
}

// Results are what a run produced. Incomplete is set when the run was
// interrupted: Samples then hold the rounds completed before it.
type Results struct {
	Cells      []Cell
	Samples    []Sample
	Corpora    map[string]string // corpus source -> digest
	Incomplete bool
	Started    time.Time
	Wall       time.Duration
	// Labels are extra configuration lines, such as machine=arm64-runner.
	Labels []workloads.KV
	// Command is the command line that made the results, for the record.
	Command string
	// Options are the options of the run (rounds, window, warm-up).
	Options Options
	// Periods holds each cell's Instance.Period, by cell name.
	Periods map[string]int
}

// Run measures every cell once per round, in a new shuffled order each
// round. Setup happens once per cell (threads aside), before its first
// measurement, and is never timed. A wrong answer stops the run with an
// error naming the cell. Cancelling ctx stops after the current cell; the
// results then hold only completed rounds and are marked incomplete.
func Run(ctx context.Context, cells []Cell, opts Options) (*Results, error) {
	if opts.Rounds < 1 || opts.Window <= 0 || opts.Warmup < 0 {
		return nil, fmt.Errorf("rounds and window must be positive")
	}
	res := &Results{Cells: cells, Corpora: make(map[string]string), Started: time.Now(), Periods: make(map[string]int), Options: opts}
	corpusFor := func(cas int) (*corpus.Corpus, error) {
		c, err := opts.Corpus(cas)
		if err == nil {
			res.Corpora[c.Source] = c.Digest
		}
		return c, err
	}
	instances := make(map[string]*workloads.Instance)
	mem := make(map[string]memory)
	orderSeed := opts.OrderSeed
	if orderSeed == 0 {
		orderSeed = opts.Seed
	}
	r := rand.New(rand.NewPCG(orderSeed, 0x5eed))
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	done := 0
	for round := 0; round < opts.Rounds; round++ {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var roundSamples []Sample
		for _, ci := range order {
			if ctx.Err() != nil {
				res.Incomplete = true
				res.Wall = time.Since(res.Started)
				return res, nil
			}
			c := cells[ci]
			if opts.Progress != nil {
				opts.Progress(Progress{round + 1, opts.Rounds, done, len(cells) * opts.Rounds, c, time.Since(res.Started)})
			}
			inst, ok := instances[c.setupKey()]
			if !ok {
				var err error
				env := workloads.Env{Impl: c.Impl, Params: c.Params, Corpus: corpusFor, Seed: opts.Seed}
				if inst, err = c.Workload.Setup(env); err != nil {
					return nil, fmt.Errorf("cell %s: setup: %w", c.Name(), err)
				}
				instances[c.setupKey()] = inst
				if mem[c.setupKey()], err = alone(inst); err != nil {
					return nil, fmt.Errorf("cell %s: %w", c.Name(), err)
				}
			}
			res.Periods[c.Name()] = inst.Period
			m, err := measure(ctx, inst, c.Threads, opts.Warmup, opts.Window, mem[c.setupKey()])
			if ctx.Err() != nil {
				// Interrupted inside the window: keep the completed rounds.
				res.Incomplete = true
				res.Wall = time.Since(res.Started)
				return res, nil
			}
			if err != nil {
				return nil, fmt.Errorf("cell %s: %w", c.Name(), err)
			}
			roundSamples = append(roundSamples, Sample{c, round, m})
			done++
		}
		res.Samples = append(res.Samples, roundSamples...)
	}
	res.Wall = time.Since(res.Started)
	return res, nil
}
