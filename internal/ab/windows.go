package ab

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// Paired at the window: each round starts the three arm processes (base,
// head, base again; fresh every round) at once, lets them set up, and then
// drives them window by window — for each cell, in a shuffled order,
// Inner triples of one window in each arm, back to back, in an order that
// rotates through the six permutations — so a slow stretch of the machine
// lands on all three arms of a triple, not on one arm's whole process. An
// arm's value for the round is the median of its windows.
//
// Each window is followed by the arm's speed probe (records.Probe). A
// triple whose arms' probes disagree by more than SpeedLimit — the machine
// ran at one speed for one arm and at another for the next — or one of
// whose windows Disturbed names a reason for, is set aside and measured
// again, at most Retries times.

// window is one arm's window of a cell: its values, tidied.
type window map[string]float64

// armProcess is one arm's `perfrun arm` process of a round.
type armProcess struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	cells []string
	file  string
	err   *strings.Builder
	// stall is the longest a window's answer may take (Runner.Stall).
	stall time.Duration
}

// startArm starts bin's arm process and reads its cells; it returns once
// the arm has set every cell up.
func (r *Runner) startArm(ctx context.Context, bin, arm string, round int, match string) (*armProcess, error) {
	p := &armProcess{name: arm, file: filepath.Join(r.Dir, fmt.Sprintf("round%03d-%s.txt", round, arm)), err: new(strings.Builder),
		stall: cmp.Or(r.Stall, DefaultStall)}
	args := append([]string{"arm", "-o", p.file}, r.ArmArgs...)
	if match != "" {
		args = append(args, "-match", match)
	}
	p.cmd = exec.CommandContext(ctx, bin, args...)
	p.cmd.Env = r.env(arm)
	p.cmd.Stderr = p.err
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	p.out = bufio.NewScanner(stdout)
	p.out.Buffer(nil, 1<<20)
	if !p.out.Scan() || p.out.Text() != ArmProtocol {
		return nil, p.fail(fmt.Errorf("%s does not speak perfrun's arm protocol (a revision from before it; use -pairing process)", filepath.Base(bin)))
	}
	for p.out.Scan() {
		line := p.out.Text()
		if line == ArmReady {
			return p, nil
		}
		if name, ok := strings.CutPrefix(line, ArmCell+" "); ok {
			p.cells = append(p.cells, name)
		}
	}
	return nil, p.fail(errors.New("ended before it was ready"))
}

// ArmProtocol is the first line an arm process prints (perfrun arm), so
// ab can tell a binary that speaks the protocol from one that does not.
const ArmProtocol = "perfrun-arm 1"

// The protocol's other words, one definition for both ends: the arm
// announces each cell (ArmCell NAME) and then ArmReady; ab asks for a
// window (ArmWindow NAME), which the arm answers with ArmSample NAME JSON,
// or ends the arm (ArmQuit).
const (
	ArmCell   = "cell"
	ArmReady  = "ready"
	ArmWindow = "window"
	ArmSample = "sample"
	ArmQuit   = "quit"
)

// fail ends the process and returns err with what it printed. Where the
// process had ended on its own (killed, or exited) before ab could write
// to it or read its answer, that end is what is said, not the broken pipe
// it left.
func (p *armProcess) fail(err error) error {
	p.in.Close()
	werr := p.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(werr, &exit) && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, errNoAnswer)) {
		err = fmt.Errorf("its process ended (%v) while ab waited on it", exit)
	}
	if msg := strings.TrimSpace(p.err.String()); msg != "" {
		err = fmt.Errorf("%v: %s", err, msg)
	}
	return fmt.Errorf("%s arm: %w", p.name, err)
}

// errNoAnswer is an arm's output that ended before its answer.
var errNoAnswer = errors.New("no answer")

// window measures one window of the named cell.
func (p *armProcess) window(name string) (window, error) {
	if _, err := fmt.Fprintf(p.in, "%s %s\n", ArmWindow, name); err != nil {
		return nil, p.fail(err)
	}
	var stalled atomic.Bool
	watch := time.AfterFunc(p.stall, func() { stalled.Store(true); p.cmd.Process.Kill() })
	answered := p.out.Scan()
	watch.Stop()
	if stalled.Load() {
		return nil, p.fail(fmt.Errorf("no answer for %s in %v: the process was stopped or hung (kill -STOP, a debugger, a lost CPU), and ab ended it", name, p.stall))
	}
	if !answered {
		return nil, p.fail(fmt.Errorf("%w for %s", errNoAnswer, name))
	}
	rest, ok := strings.CutPrefix(p.out.Text(), ArmSample+" "+name+" ")
	if !ok {
		return nil, p.fail(fmt.Errorf("unexpected answer %q", p.out.Text()))
	}
	var raw map[string]float64
	if err := json.Unmarshal([]byte(rest), &raw); err != nil {
		return nil, p.fail(err)
	}
	w := make(window, len(raw))
	for unit, v := range raw {
		tv := records.Value(v, unit)
		w[tv.Unit] = tv.Value
	}
	return w, nil
}

// quit ends the process, which writes its results file.
func (p *armProcess) quit() error {
	fmt.Fprintln(p.in, ArmQuit)
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		return fmt.Errorf("%s arm: %v: %s", p.name, err, strings.TrimSpace(p.err.String()))
	}
	return nil
}

// DefaultStall is the longest an arm may take to answer for one window
// before ab ends it (Runner.Stall where unset): far past any window a
// cell is measured for, so only a process that stopped meets it.
const DefaultStall = 2 * time.Minute

// Retries is how many times a set-aside triple is measured again.
const Retries = 2

// runWindows is Run paired at the window.
func (r *Runner) runWindows(ctx context.Context, match string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
	windows := make(map[string][]compare.Window)
	var idx cellIndex
	rng := rand.New(rand.NewPCG(r.Seed, uint64(first)+0xab))
	for round := first; round < first+r.Rounds; round++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, err
		}
		if err := r.prepare(ctx, round, first); err != nil {
			return nil, nil, 0, err
		}
		if round+1 < first+r.Rounds {
			r.linkAhead(ctx, round+1)
		}
		procs, err := r.startArms(ctx, round, match)
		r.settle()
		if err != nil {
			return nil, nil, 0, err
		}
		names := unionCells(procs)
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for ci, name := range names {
			if r.Progress != nil {
				r.Progress(round-first+1, r.Rounds, fmt.Sprintf("cell %d/%d", ci+1, len(names)))
			}
			ws, err := r.measureCell(procs, name, round, ci)
			if err != nil {
				stopAll(procs)
				return nil, nil, 0, err
			}
			windows[name] = append(windows[name], ws...)
		}
		for _, p := range procs {
			if err := p.quit(); err != nil {
				stopAll(procs)
				return nil, nil, 0, err
			}
		}
		for _, p := range procs {
			set, err := records.ReadFile(p.file)
			if err != nil {
				return nil, nil, 0, err
			}
			idx.add(set)
		}
	}
	// The arms follow from the windows alone, as a replay of them does.
	arms := make(map[string]compare.Arms, len(windows))
	for name, ws := range windows {
		arms[name] = armsOf(ws, first, first+r.Rounds)
	}
	return idx.cells, arms, idx.cores, nil
}

// measureCell measures a cell's Inner triples of the round, each in the
// order the rotation gives it, a disturbed triple again up to Retries
// times, and returns every window it measured, the disturbed ones marked
// with why (armsOf makes the round's values of them).
func (r *Runner) measureCell(procs map[string]*armProcess, name string, round, ci int) ([]compare.Window, error) {
	probe, transfer := records.Tidy(records.Probe), records.Tidy(records.TransferProbe)
	inner := max(r.Inner, 1)
	var out []compare.Window
	for k := range inner {
		order := orders[(round*inner+k+ci)%len(orders)]
		for try := 0; try <= Retries; try++ {
			t0 := time.Now()
			triple, err := r.triple(procs, order, name)
			r.Measuring += time.Since(t0)
			if err != nil {
				return nil, err
			}
			why := r.disturbed(triple, probe)
			for arm, w := range triple {
				out = append(out, compare.Window{Round: round, Arm: arm, Value: w[r.Metric], Probe: w[probe], Transfer: probed(w, transfer), Aside: why})
			}
			if why == "" {
				break
			}
		}
	}
	return out, nil
}

// probed is the window's value of unit, or -1 if it has none.
func probed(w map[string]float64, unit string) float64 {
	if v, ok := w[unit]; ok {
		return v
	}
	return -1
}

// armsOf are a cell's arms over rounds [from, to) of its windows — the one
// way a runner and a replay of its windows.csv make them: each arm's value
// in a round is the median of its windows not set aside (the machine
// disturbed them, or their threads ran on another pair of cores than most
// of the look's: placed), and each set-aside triple counts once (by its
// head window).
func armsOf(windows []compare.Window, from, to int) compare.Arms {
	var a compare.Arms
	values := make(map[int]map[string][]float64)
	var look []compare.Window
	for _, w := range windows {
		if w.Round >= from && w.Round < to {
			look = append(look, w)
		}
	}
	for _, w := range placed(look) {
		a.Windows = append(a.Windows, w)
		if w.Aside != "" {
			if w.Arm == ArmHead {
				a.Aside++
				a.Why = w.Aside
			}
			continue
		}
		if values[w.Round] == nil {
			values[w.Round] = make(map[string][]float64)
		}
		values[w.Round][w.Arm] = append(values[w.Round][w.Arm], w.Value)
	}
	for round, byArm := range values {
		for arm, v := range byArm {
			a.Add(arm, round, records.Median(v))
		}
	}
	return a
}

// startArms starts the round's three arm processes at once: their set-up
// is not measured, so it may share the machine.
func (r *Runner) startArms(ctx context.Context, round int, match string) (map[string]*armProcess, error) {
	procs := make(map[string]*armProcess)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var errs []error
	for _, arm := range []string{ArmBase, ArmHead, ArmBase2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.startArm(ctx, r.binary(arm, round), arm, round, match)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			procs[arm] = p
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		stopAll(procs)
		return nil, err
	}
	return procs, nil
}

// binary is the perfrun binary an arm runs in a round (see Runner.Base
// and Runner.BaseRev).
func (r *Runner) binary(arm string, round int) string {
	if r.BaseRev != nil {
		return r.round[arm]
	}
	switch arm {
	case ArmHead:
		return r.Head[round%len(r.Head)]
	case ArmBase2:
		return r.Base[(round+1)%len(r.Base)]
	}
	return r.Base[round%len(r.Base)]
}

func stopAll(procs map[string]*armProcess) {
	for _, p := range procs {
		p.in.Close()
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

// unionCells lists every cell any arm measures, in the first arm's order
// and then the others'.
func unionCells(procs map[string]*armProcess) []string {
	var out []string
	for _, arm := range []string{ArmBase, ArmHead, ArmBase2} {
		if p := procs[arm]; p != nil {
			for _, c := range p.cells {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// triple measures one window of the cell in each arm that has it, in
// order.
func (r *Runner) triple(procs map[string]*armProcess, order [3]string, name string) (map[string]window, error) {
	out := make(map[string]window)
	for _, arm := range order {
		p := procs[arm]
		if !slices.Contains(p.cells, name) {
			continue
		}
		w, err := p.window(name)
		if err != nil {
			return nil, err
		}
		out[arm] = w
	}
	return out, nil
}

// disturbed says why a triple cannot be compared, or "": a window the
// machine disturbed (Disturbed), or probes that disagree by more than
// SpeedLimit.
func (r *Runner) disturbed(triple map[string]window, probe string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, arm := range []string{ArmBase, ArmHead, ArmBase2} {
		w, ok := triple[arm]
		if !ok {
			continue
		}
		if r.Disturbed != nil {
			if why := r.Disturbed(func(unit string) (float64, bool) { v, ok := w[records.Tidy(unit)]; return v, ok }); why != "" {
				return why
			}
		}
		if p, ok := w[probe]; ok {
			lo, hi = min(lo, p), max(hi, p)
		}
	}
	if r.SpeedLimit > 0 && lo > 0 && hi/lo-1 > r.SpeedLimit {
		return fmt.Sprintf("the machine's speed moved %.0f%% between the arms' windows", 100*(hi/lo-1))
	}
	return ""
}
