package harness

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/procgroup"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Command is a benchmark perfrun does not link: a program run once per
// window, on the cell's thread count, that times itself and prints what
// one call took. Its windows are interleaved with the control and the
// other cells, probed, set aside and re-measured like theirs, so a foreign
// tool (OpenSSL's perftools x509storeissuer, say) stands in the same
// tables, plots and verdicts as the built-in stores.
//
// The contract: the program prints the time one call took on one thread
// (its threads × its wall time over its calls, recorded as ns/call) as
// the last number of its standard output, with its unit (ns, us, µs, ms
// or s) right after it, or given as Unit. It exits 0; anything else fails
// the run with the tail of what it printed. That figure is an aggregate:
// a built-in cell's ns/call is the mean of each worker's time per call,
// larger than the aggregate when the workers are unequal, so at more than
// one thread a command and a store compare like for like by ns/op (wall
// time over all calls, for both).
type Command struct {
	// Name is the cell's impl= value.
	Name string
	// Args is the command line. {threads} becomes the cell's thread count,
	// {corpus} a directory perfrun writes from the run's corpus (see
	// corpusFiles), {at} the corpus's verification time in Unix seconds
	// (the time perfrun's own lookups check validity at), and $VAR or
	// ${VAR} the environment's value, so that two arms of an A/B can run
	// two builds of one tool.
	Args []string
	// Unit is the unit of a bare number: ns, us, µs, ms or s.
	Unit string
}

// corpusFiles are what a command's {corpus} directory holds: every object
// of the cell's corpus as PEM (the certificates, then the CRLs), the one
// leaf looked up (its issuer in the store when hit=1, absent when hit=0)
// under the name perftools' x509storeissuer reads, every leaf of that kind
// that perfrun's own lookups rotate over (for a driver that wants their
// working set, not one leaf's), and an empty directory for a
// hashed-directory lookup that must find nothing. OpenSSL's own tools load
// the first through SSL_CERT_FILE and the last through SSL_CERT_DIR.
var corpusFiles = struct{ Objects, Leaf, Leaves, EmptyDir string }{"objects.pem", "servercert.pem", "leaves.pem", "empty"}

// UsesCorpus says whether the command is given the run's corpus; only
// then does its cell carry the workload's parameters.
func (c *Command) UsesCorpus() bool {
	for _, a := range c.Args {
		if strings.Contains(a, "{corpus}") || strings.Contains(a, "{at}") {
			return true
		}
	}
	return false
}

// ParseCommand reads NAME=COMMAND LINE (words split at spaces, no quoting).
func ParseCommand(spec, unit string) (*Command, error) {
	name, line, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	args := strings.Fields(line)
	if !ok || name == "" || len(args) == 0 {
		return nil, fmt.Errorf("bad command %q: want NAME=COMMAND ARGS, e.g. x509storeissuer='./x509storeissuer -t {corpus} {threads}'", spec)
	}
	if strings.ContainsAny(name, "/= \t") || records.OneLine(name) != name {
		return nil, fmt.Errorf("bad command name %q: it becomes impl=%s in benchmark names, so no /, =, spaces or controls", name, name)
	}
	if unit != "" {
		if _, ok := unitNs[unit]; !ok {
			return nil, fmt.Errorf("bad command unit %q: want ns, us, µs, ms or s", unit)
		}
	}
	return &Command{Name: name, Args: args, Unit: unit}, nil
}

// unitNs is nanoseconds per unit of the numbers a command may print.
var unitNs = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}

// lastNumber finds the last number of an output and the unit glued to it
// or following it.
var lastNumber = regexp.MustCompile(`([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(ns|us|µs|μs|ms|s)?\b`)

// ParseCommandOutput reads a command's time per call, in ns.
func (c *Command) ParseCommandOutput(out []byte) (float64, error) {
	all := lastNumber.FindAllSubmatch(out, -1)
	if len(all) == 0 {
		return 0, errors.New("printed no number (it must print the time of one call as its last number)")
	}
	m := all[len(all)-1]
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil || v <= 0 || v != v || v > 1e300 {
		return 0, fmt.Errorf("printed %q as its time per call: want a positive number", m[1])
	}
	unit := string(m[2])
	if unit == "" {
		unit = c.Unit
	}
	if unit == "" {
		return 0, fmt.Errorf("printed %s with no unit: give one with the command's unit flag (ns, us, ms, s)", m[1])
	}
	return v * unitNs[unit], nil
}

// commandCell is what a command cell needs across windows: the
// directory its {corpus} names and the time its {at} gives.
type commandCell struct {
	dir string
	at  int64
}

// commandSetup writes the cell's corpus directory on first use.
func (r *runner) commandSetup(c Cell) (*commandCell, error) {
	key := c.setupKey()
	if cc, ok := r.commands[key]; ok {
		return cc, nil
	}
	cc := &commandCell{}
	if c.Command.UsesCorpus() {
		co, err := r.opts.Corpus(c.Params.Int("certs"))
		if err != nil {
			return nil, fmt.Errorf("cell %s: corpus: %w", c.Name(), err)
		}
		r.res.Corpora[co.Source] = co.Digest
		cc.at = co.At.Unix()
		if cc.dir, err = writeCorpusDir(co, c.Params.Float("hit"), workloads.LeafLimit(c.Params)); err != nil {
			return nil, fmt.Errorf("cell %s: %w", c.Name(), err)
		}
	}
	r.commands[key] = cc
	return cc, nil
}

// writeCorpusDir writes corpusFiles for co into a new temporary directory:
// its leaves are the first limit of the kind hit asks for (all when limit
// is 0), the leaves perfrun's own lookups rotate over.
func writeCorpusDir(co *corpus.Corpus, hit float64, limit int) (string, error) {
	var leaves []corpus.Leaf
	switch {
	case hit == 1 && len(co.Hits) > 0:
		leaves = co.Hits
	case hit == 0 && len(co.Misses) > 0:
		leaves = co.Misses
	case hit != 0 && hit != 1:
		return "", fmt.Errorf("a command looks up leaves of one kind: hit must be 0 or 1, not %v", hit)
	default:
		return "", fmt.Errorf("corpus %s has no leaf for hit=%v", co.Source, hit)
	}
	leaves = workloads.FirstLeaves(leaves, limit)
	dir, err := os.MkdirTemp("", "perfrun-command-")
	if err != nil {
		return "", err
	}
	var objs bytes.Buffer
	for _, o := range co.Objects() {
		typ := "CERTIFICATE"
		if o.Kind == store.CRL {
			typ = "X509 CRL"
		}
		pem.Encode(&objs, &pem.Block{Type: typ, Bytes: o.DER})
	}
	var all bytes.Buffer
	for _, l := range leaves {
		pem.Encode(&all, &pem.Block{Type: "CERTIFICATE", Bytes: l.Cert.DER})
	}
	err = errors.Join(
		os.WriteFile(filepath.Join(dir, corpusFiles.Objects), objs.Bytes(), 0o644),
		os.WriteFile(filepath.Join(dir, corpusFiles.Leaf), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaves[0].Cert.DER}), 0o644),
		os.WriteFile(filepath.Join(dir, corpusFiles.Leaves), all.Bytes(), 0o644),
		os.Mkdir(filepath.Join(dir, corpusFiles.EmptyDir), 0o755))
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("writing the corpus for a command: %w", err)
	}
	return dir, nil
}

// removeCommandDirs removes every corpus directory the run wrote.
func (r *runner) removeCommandDirs() {
	for _, cc := range r.commands {
		if cc.dir != "" {
			os.RemoveAll(cc.dir)
		}
	}
}

// expand fills a command's template for one window.
func (cc *commandCell) expand(cmd *Command, threads int) []string {
	out := make([]string, len(cmd.Args))
	for i, a := range cmd.Args {
		// The user's $VARIABLES first; what perfrun substitutes is data,
		// never expanded again (a corpus path may hold a '$').
		a = os.ExpandEnv(a)
		a = strings.ReplaceAll(a, "{threads}", strconv.Itoa(threads))
		a = strings.ReplaceAll(a, "{corpus}", cc.dir)
		out[i] = strings.ReplaceAll(a, "{at}", strconv.FormatInt(cc.at, 10))
	}
	return out
}

// outputLimit bounds what perfrun keeps of a command's output.
const outputLimit = 1 << 20

// boundedBuffer keeps the first outputLimit bytes written to it.
type boundedBuffer struct{ bytes.Buffer }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := outputLimit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// commandWindow runs a command cell once: its own timing is the window's
// ns/call; perfrun adds what it sees of the machine around it (the
// hypervisor's steal over the command's wall time, and the child's CPU
// time against threads × wall, which falls when a thread waited for a
// CPU or the command spent its time starting up).
func (r *runner) commandWindow(ctx context.Context, c Cell, cc *commandCell) ([]workloads.Metric, error) {
	args := cc.expand(c.Command, c.Threads)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stdout, stderr boundedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	procgroup.Own(cmd)
	steal0, stealOK := stealTime()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	procgroup.End(cmd)
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited well; a child it left kept its output open, and is gone now
	}
	steal1, _ := stealTime()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v%s", strings.Join(args, " "), err, tail(stderr.Bytes(), stdout.Bytes()))
	}
	ns, err := c.Command.ParseCommandOutput(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s %v%s", args[0], err, tail(stdout.Bytes()))
	}
	t := float64(c.Threads)
	out := []workloads.Metric{
		{Value: ns / t, Unit: records.NsPerOp},
		{Value: ns, Unit: records.NsPerCall},
		{Value: t / ns * 1e9, Unit: records.OpsPerSec},
		{Value: wall.Seconds(), Unit: commandWall},
	}
	if cpu, ok := childCPU(cmd.ProcessState); ok {
		out = append(out, workloads.Metric{Value: cpu.Seconds() / (wall.Seconds() * t), Unit: commandCPU})
	}
	if stealOK {
		out = append(out, stealMetric(steal1-steal0, wall))
	}
	return out, nil
}

// Units only a command's windows have.
const (
	commandWall = "command-sec"      // the command's wall time, start-up included
	commandCPU  = "command-cpu-frac" // its CPU time over threads × wall
)

// tail is the last lines of the first non-empty output, for an error.
func tail(outs ...[]byte) string {
	for _, o := range outs {
		o = bytes.TrimSpace(o)
		if len(o) == 0 {
			continue
		}
		lines := strings.Split(string(o), "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		for i, l := range lines {
			lines[i] = records.OneLine(l)
		}
		return "; it printed:\n\t" + strings.Join(lines, "\n\t")
	}
	return ""
}
