package locks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// Units are a profile's units, in the order Values gives them, each an
// exact count per operation.
var Units = records.LockUnits

// A Profile is what one operation of a cell does that makes it contend.
type Profile struct {
	// ExclusiveLocks and SharedLocks are acquisitions per operation.
	ExclusiveLocks, SharedLocks float64
	// LockedInstructions are the instructions executed per operation
	// while a lock is held exclusively; SharedLockedInstructions while one
	// is held shared.
	LockedInstructions, SharedLockedInstructions float64
	// Atomics are the atomic read-modify-write instructions per
	// operation, the locks' own included.
	Atomics float64
	// Locks are the locks one at a time, in the order an operation first
	// took them.
	Locks []LockProfile
	// Lines are how the atomics besides the exclusive locks' own spread
	// over cache lines.
	Lines Lines
}

// A LockProfile is one lock's share of a Profile.
type LockProfile struct {
	Kind                      string
	Exclusive, Shared         float64 // acquisitions per operation
	HeldExclusive, HeldShared float64 // instructions held per operation
}

// Check refuses a profile no operation can have (predict.CheckLocks).
func (p Profile) Check(name string) error {
	return predict.CheckLocks(name, predict.LockCounts{Exclusive: p.ExclusiveLocks, Shared: p.SharedLocks,
		Held: p.LockedInstructions, SharedHeld: p.SharedLockedInstructions, Atomics: p.Atomics})
}

// Values are the profile's values in the order of Units.
func (p Profile) Values() []float64 {
	return []float64{p.ExclusiveLocks, p.SharedLocks, p.LockedInstructions, p.SharedLockedInstructions, p.Atomics}
}

// Busiest is the lock an operation holds exclusively for the most
// instructions: its exclusive acquisitions and those instructions per
// operation, zero where no lock is taken exclusively.
func (p Profile) Busiest() (acquisitions, held float64) {
	for _, l := range p.Locks {
		if l.Exclusive > 0 && (acquisitions == 0 || l.HeldExclusive > held) {
			acquisitions, held = l.Exclusive, l.HeldExclusive
		}
	}
	return acquisitions, held
}

// FromValues is the profile whose Values are v (a file's, read back);
// it has no per-lock part.
func FromValues(v []float64) Profile {
	return Profile{ExclusiveLocks: v[0], SharedLocks: v[1], LockedInstructions: v[2], SharedLockedInstructions: v[3], Atomics: v[4]}
}

// Count profiles a cell: it runs argv (a binary built for lock profiles
// whose command runs the cell's operations through Run) under callgrind
// with env added, and reads the Report it prints and callgrind's dumps.
// The process runs on one thread without asynchronous preemption: the
// signal that preemption sends makes callgrind abort now and then.
func Count(ctx context.Context, argv, env []string) (Profile, error) {
	if !callgrind.Requests {
		return Profile{}, fmt.Errorf("lock profiles need callgrind's client requests, which this architecture lacks here")
	}
	dir, err := scratch.Dir("locks-")
	if err != nil {
		return Profile{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "callgrind.out")
	args := append([]string{"--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--collect-bus=yes",
		"--dump-instr=no", "--dump-line=no", "--callgrind-out-file=" + out}, argv...)
	var stdout bytes.Buffer
	if err := callgrind.Run(ctx, args, env, &stdout, nil); err != nil {
		return Profile{}, err
	}
	var rep Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Ops < 1 {
		return Profile{}, fmt.Errorf("the profiled process printed no lock report (%v): %.200q", err, stdout.String())
	}
	dumps, err := readDumps(out)
	if err != nil {
		return Profile{}, err
	}
	return rep.profile(dumps)
}

// cost is what one dump collected.
type cost struct{ instructions, atomics float64 }

// profile turns the report and the dumps into counts per operation.
func (rep Report) profile(dumps map[string]cost) (Profile, error) {
	get := func(label string) (cost, error) {
		c, ok := dumps[label]
		if !ok {
			return cost{}, fmt.Errorf("callgrind wrote no dump %q", label)
		}
		return c, nil
	}
	// The hook's instructions per held region of each kind of lock.
	overhead := make([]float64, len(kinds))
	n := float64(rep.Ops)
	for i, label := range rep.Calibrations {
		c, err := get(label)
		if err != nil {
			return Profile{}, err
		}
		overhead[i] = c.instructions / calibrations
	}
	// held is what a pass counted under a mode, less the hook's share of
	// the acquisitions it counted under: acquired per kind.
	held := func(label string, shared bool, acquired []int64) (float64, error) {
		c, err := get(label)
		if err != nil {
			return 0, err
		}
		h := c.instructions
		for i, k := range kinds {
			if k.shared == shared {
				h -= overhead[i] * float64(acquired[i])
			}
		}
		return max(0, h) / n, nil
	}
	count, err := get(countLabel)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Atomics: count.atomics / n}
	for _, l := range rep.Locks {
		p.ExclusiveLocks += float64(l.Exclusive) / n
		p.SharedLocks += float64(l.Shared) / n
		p.Locks = append(p.Locks, LockProfile{Kind: l.Kind, Exclusive: float64(l.Exclusive) / n, Shared: float64(l.Shared) / n})
	}
	p.Lines = spread(max(0, p.Atomics-2*p.ExclusiveLocks), rep.Lines, rep.Ops)
	if p.ExclusiveLocks > 0 {
		if p.LockedInstructions, err = held(exclusiveLabel, false, rep.PerKind); err != nil {
			return Profile{}, err
		}
	}
	if p.SharedLocks > 0 {
		if p.SharedLockedInstructions, err = held(sharedLabel, true, rep.PerKind); err != nil {
			return Profile{}, err
		}
	}
	for i, l := range rep.Locks {
		lp := &p.Locks[i]
		if l.Exclusive > 0 {
			lp.HeldExclusive = p.LockedInstructions
		}
		if l.Shared > 0 {
			lp.HeldShared = p.SharedLockedInstructions
		}
		if l.HeldLabel != "" {
			if lp.HeldExclusive, err = held(l.HeldLabel, false, l.PerKind); err != nil {
				return Profile{}, err
			}
		}
		if l.SharedLabel != "" {
			if lp.HeldShared, err = held(l.SharedLabel, true, l.PerKind); err != nil {
				return Profile{}, err
			}
		}
	}
	return p, nil
}

// readDumps reads every dump callgrind wrote beside out (out.1, out.2, …
// for the client's dump requests), keyed by the label the request gave.
func readDumps(out string) (map[string]cost, error) {
	files, err := filepath.Glob(out + ".*")
	if err != nil {
		return nil, err
	}
	dumps := make(map[string]cost)
	for _, f := range files {
		label, c, err := readDump(f)
		if err != nil {
			return nil, err
		}
		if label != "" {
			dumps[label] = c
		}
	}
	return dumps, nil
}

// readDump reads one callgrind dump's trigger and its totals of the
// events Ir (instructions) and Ge (atomic instructions).
func readDump(path string) (label string, c cost, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", c, err
	}
	defer f.Close()
	var events []string
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, "desc: Trigger: Client Request: "):
			label = strings.TrimPrefix(line, "desc: Trigger: Client Request: ")
		case strings.HasPrefix(line, "events: "):
			events = strings.Fields(strings.TrimPrefix(line, "events: "))
		case strings.HasPrefix(line, "summary: ") || strings.HasPrefix(line, "totals: "):
			for i, v := range strings.Fields(line)[1:] {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || i >= len(events) {
					return "", c, fmt.Errorf("%s: bad totals line %q", path, line)
				}
				switch events[i] {
				case "Ir":
					c.instructions = x
				case "Ge":
					c.atomics = x
				}
			}
		}
	}
	return label, c, s.Err()
}
