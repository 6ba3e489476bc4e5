package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store"
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
	// Pin binds each worker of a cell with no more threads than the
	// process has CPUs to a CPU of its own. Off by default for runs: it
	// did not make scaling steadier (results/notes.md). ab's arms pin, so
	// the arms of a triple run on the same CPUs.
	Pin bool
	// Quarantine sets rounds aside that the machine disturbed; its zero
	// value turns it off.
	Quarantine Quarantine
	// Precision, if positive, adds rounds after the planned ones until
	// every gated cell's median is known to within this fraction (the
	// half-width of its confidence interval over the median), or until the
	// run has taken MaxTime.
	Precision float64
	MaxTime   time.Duration
	// Profiles asks for pprof profiles of each cell.
	Profiles Profiles
}

// DefaultOptions are what `perfrun run` uses without flags; the CLI takes
// its defaults from here.
//
// Six rounds are the fewest that give the median a 95% interval
// (benchstat's, and every table's and plot's in perfrun): five print "± ∞".
var DefaultOptions = Options{Rounds: 6, Window: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Seed: 1,
	Quarantine: DefaultQuarantine, MaxTime: 10 * time.Minute}

// Progress describes where a run is.
type Progress struct {
	Round, Rounds int
	Done, Total   int // cells measured so far, of the whole run as planned so far
	Cell          Cell
	Elapsed       time.Duration
	// Extra is set in the rounds added after the planned ones: to replace
	// quarantined rounds, or to reach the requested precision.
	Extra string
	// Left, in an added round, is the most the added rounds may still
	// take (their budget's rest): they end sooner where their cells are
	// settled. Zero: no bound is known.
	Left time.Duration
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
	Start   time.Time
	Metrics []workloads.Metric
	// Quarantine, if set, says why the machine disturbed this sample: it
	// is kept in the results but left out of every summary and verdict.
	Quarantine string
}

// Outcome is what a run produced. Incomplete is set when the run was
// interrupted: Samples then hold the rounds completed before it.
type Outcome struct {
	Cells []Cell
	// Controls are the control cells measured beside Cells, one per
	// thread count (and always one thread).
	Controls   []Cell
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
	// ExtraRounds counts the rounds added after the planned ones.
	ExtraRounds int
	// WaitedOut counts the windows of added rounds not measured because
	// the floor probe run just before found the host in its other state
	// for lookups (the state whose windows the quarantine sets aside).
	WaitedOut int
	// RepairRounds is how many rounds of the short cells bounded the
	// time of the rounds that repaired set-aside samples: Quarantine.Extra,
	// or the planned rounds while a cell had kept fewer than half (0: none
	// ran).
	RepairRounds int
	// Imprecise lists the gated cells that did not reach Options.Precision.
	Imprecise []string
	// Unsupported maps a cell left out because its store lacks an
	// operation its workload needs (store.ErrUnsupported) to why.
	Unsupported map[string]string
}

// runner is one run in progress: the set-up instances and what was
// measured so far.
type runner struct {
	opts      Options
	res       *Outcome
	instances map[string]*workloads.Instance
	mem       map[string]memory
	rng       *rand.Rand
	cpus      []int
	prober    *prober
	commands  map[string]*commandCell
	done      int
	total     int
	// addedUntil is when the added rounds' budget ends (Progress.Left).
	addedUntil time.Time
	// floorStandIn, where a test sets it, stands in for floorProbe.
	floorStandIn func(context.Context, Cell) (workloads.Metric, bool, error)
}

// Run measures every cell once per round, in a new shuffled order each
// round, with a control cell per thread count among them (see
// workloads.Control). Setup happens once per cell (threads aside), before
// its first measurement, and is never timed. A wrong answer stops the run
// with an error naming the cell. After the planned rounds, rounds the
// machine disturbed are set aside and their cells measured again (see
// Quarantine), and rounds are added where Precision asks for them.
// Cancelling ctx stops within a batch of operations; the results then hold
// only completed rounds and are marked incomplete.
func Run(ctx context.Context, cells []Cell, opts Options) (*Outcome, error) {
	if opts.Rounds < 1 || opts.Window <= 0 || opts.Warmup < 0 {
		return nil, fmt.Errorf("rounds and window must be positive")
	}
	r := newRunner(cells, opts)
	res := r.res
	res.Controls = controlCells(cells)
	orderSeed := opts.OrderSeed
	if orderSeed == 0 {
		orderSeed = opts.Seed
	}
	r.rng = rand.New(rand.NewPCG(orderSeed, 0x5eed))
	planned := append(slices.Clone(cells), res.Controls...)
	r.total = len(planned) * opts.Rounds
	for round := 0; round < opts.Rounds; round++ {
		if stopped, err := r.round(ctx, planned, round, ""); stopped || err != nil {
			return r.finish(), err
		}
	}
	if stopped, err := r.extraRounds(ctx); stopped || err != nil {
		return r.finish(), err
	}
	return r.finish(), nil
}

// newRunner starts the outcome of cells measured with opts, and the
// runner that fills it (a run's, or a driver's).
func newRunner(cells []Cell, opts Options) *runner {
	res := &Outcome{Cells: cells, Corpora: make(map[string]string), Started: time.Now(), Periods: make(map[string]int), Options: opts,
		Unsupported: make(map[string]string)}
	r := &runner{opts: opts, res: res, instances: make(map[string]*workloads.Instance), mem: make(map[string]memory),
		commands: make(map[string]*commandCell)}
	if opts.Pin {
		r.cpus = allowedCPUs()
	}
	return r
}

func (r *runner) finish() *Outcome {
	r.removeCommandDirs()
	r.res.Wall = time.Since(r.res.Started)
	return r.res
}

// controlCells returns a control cell for each thread count of cells, and
// for one thread, which every p(n) is relative to.
func controlCells(cells []Cell) []Cell {
	threads := []int{1}
	for _, c := range cells {
		if !slices.Contains(threads, c.Threads) {
			threads = append(threads, c.Threads)
		}
	}
	slices.Sort(threads)
	var out []Cell
	for _, t := range threads {
		out = append(out, Cell{Workload: workloads.Control, Threads: t})
	}
	return out
}

// round measures cells once each in a shuffled order. It reports stopped
// when ctx was cancelled: the round's samples are then dropped and the
// results marked incomplete. A round that repairs set-aside samples
// (extra is repairing) measures a cell only where the floor probe just
// before finds the host in the state the run keeps (waitedOut).
func (r *runner) round(ctx context.Context, cells []Cell, round int, extra string) (stopped bool, err error) {
	order := slices.Clone(cells)
	r.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var floors map[int]float64 // the floor probes' medians, fixed until the round's samples join
	if extra == repairing {
		floors = r.probeMedians(records.FloorProbe, false)
	}
	var samples []Sample
	for _, c := range order {
		if ctx.Err() != nil {
			r.res.Incomplete = true
			return true, nil
		}
		if r.opts.Progress != nil {
			var left time.Duration
			if extra != "" && !r.addedUntil.IsZero() {
				left = max(0, time.Until(r.addedUntil)).Round(time.Second)
			}
			r.opts.Progress(Progress{round + 1, r.opts.Rounds, r.done, r.total, c, time.Since(r.res.Started), extra, left})
		}
		if _, ok := r.res.Unsupported[c.Name()]; ok {
			r.done++
			continue
		}
		if floors != nil {
			if wait, err := r.waitedOut(ctx, c, floors[c.Threads]); err != nil {
				return false, err
			} else if wait {
				r.done++
				r.res.WaitedOut++
				continue
			}
		}
		s, err := r.window(ctx, c, round)
		if err == nil {
			samples = append(samples, s)
		}
		if err != nil {
			stopped, skip := r.setBack(ctx, c, err)
			switch {
			case stopped:
				return true, nil
			case skip:
				continue
			}
			return false, err
		}
		r.done++
		if round == 0 && r.opts.Profiles.any() && c.Workload.Name != workloads.Control.Name && c.Command == nil {
			if err := r.profile(ctx, c, r.instances[c.setupKey()]); err != nil {
				return false, fmt.Errorf("cell %s: profile: %w", c.Name(), err)
			}
		}
	}
	r.res.Samples = append(r.res.Samples, samples...)
	r.judge()
	return false, nil
}

// window measures one cell once, then probes the machine's speed on the
// cell's threads (see probe.go) and, on two threads or more, the transfer
// between its first two cores (transfer.go).
func (r *runner) window(ctx context.Context, c Cell, round int) (Sample, error) {
	measureOnce, err := r.setUp(c)
	if err != nil {
		return Sample{}, err
	}
	if r.prober == nil {
		if r.prober, err = newProber(r.opts.Seed, r.cpus); err != nil {
			return Sample{}, err
		}
	}
	runtime.GC()
	start := time.Now()
	m, err := measureOnce(ctx)
	if err != nil {
		return Sample{}, &cellError{c.Name(), err}
	}
	speed, err := r.prober.probe(ctx, c.Threads)
	if err != nil {
		return Sample{}, fmt.Errorf("cell %s: speed probe: %w", c.Name(), err)
	}
	m = append(m, speed)
	if f, ok, err := r.probeFloor(ctx, c); err != nil {
		return Sample{}, fmt.Errorf("cell %s: floor probe: %w", c.Name(), err)
	} else if ok {
		m = append(m, f)
	}
	if c.Threads >= 2 && c.Threads <= Cores() {
		if t, ok := transferProbe(r.cpus); ok {
			m = append(m, t)
		}
	}
	return Sample{Cell: c, Round: round, Start: start, Metrics: m}, nil
}

// setUp sets a cell up on first use and returns what measures one of its
// windows: the workload on the cell's threads, or its command.
func (r *runner) setUp(c Cell) (func(context.Context) ([]workloads.Metric, error), error) {
	if c.Command != nil {
		cc, err := r.commandSetup(c)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) ([]workloads.Metric, error) { return r.commandWindow(ctx, c, cc) }, nil
	}
	inst, err := r.instance(c)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) ([]workloads.Metric, error) {
		return measure(ctx, inst, c.Threads, r.opts.Warmup, r.opts.Window, r.mem[c.setupKey()], r.cpus)
	}, nil
}

// setBack sorts an error of setting a cell up or measuring it: an
// interrupt (while making a corpus, or inside a window) stops the run,
// keeping the completed rounds; a store that lacks what the workload does
// leaves the cell out, said in Unsupported; anything else is the caller's
// to fail the run with.
func (r *runner) setBack(ctx context.Context, c Cell, err error) (stopped, skip bool) {
	switch {
	case ctx.Err() != nil:
		r.res.Incomplete = true
		return true, false
	case errors.Is(err, store.ErrUnsupported):
		why := err
		var ce *cellError
		if errors.As(err, &ce) {
			why = ce.err // the map is keyed by the cell already
		}
		r.res.Unsupported[c.Name()] = why.Error()
		r.done++
		return false, true
	}
	return false, false
}

// instance sets a cell up on first use; cells differing only in threads
// share one.
func (r *runner) instance(c Cell) (*workloads.Instance, error) {
	key := c.setupKey()
	if inst, ok := r.instances[key]; ok {
		r.res.Periods[c.Name()] = inst.Period
		return inst, nil
	}
	corpusFor := func(cas int) (*corpus.Corpus, error) {
		co, err := r.opts.Corpus(cas)
		if err == nil {
			r.res.Corpora[co.Source] = co.Digest
		}
		return co, err
	}
	env := workloads.Env{Impl: c.Impl, Params: c.Params, Corpus: corpusFor, Seed: r.opts.Seed}
	inst, err := c.Workload.Setup(env)
	if err != nil {
		return nil, &cellError{c.Name(), fmt.Errorf("setup: %w", err)}
	}
	r.instances[key] = inst
	if r.mem[key], err = alone(inst); err != nil {
		return nil, &cellError{c.Name(), err}
	}
	r.res.Periods[c.Name()] = inst.Period
	return inst, nil
}

// cellError is an error of one cell, which names it.
type cellError struct {
	cell string
	err  error
}

func (e *cellError) Error() string { return "cell " + e.cell + ": " + e.err.Error() }
func (e *cellError) Unwrap() error { return e.err }
