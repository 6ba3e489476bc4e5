package harness

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/selfsource"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// Environment returns the configuration lines that say where, on what and
// how results were measured: goos, goarch, cpu (as go test writes it),
// cores, go, perfrun's version, the command line, rounds, window and
// warm-up, corpus digests, what a cost parameter added to the models'
// lookups, date, and the user's labels. The number of workers is the
// threads key of each benchmark name.
func (r *Outcome) Environment() []workloads.KV {
	kv := []workloads.KV{
		{Key: "goos", Value: runtime.GOOS},
		{Key: "goarch", Value: runtime.GOARCH},
		{Key: "cpu", Value: cpuName()},
		{Key: "cores", Value: strconv.Itoa(Cores())},
		{Key: "go", Value: runtime.Version()},
		{Key: "perfrun", Value: Revision()},
	}
	if r.Command != "" {
		kv = append(kv, workloads.KV{Key: "command", Value: r.Command})
	}
	kv = append(kv,
		workloads.KV{Key: "rounds", Value: strconv.Itoa(r.Options.Rounds)},
		workloads.KV{Key: "window", Value: r.Options.Window.String()},
		workloads.KV{Key: "warmup", Value: r.Options.Warmup.String()})
	var sources []string
	for s := range r.Corpora {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	for i, s := range sources {
		kv = append(kv, workloads.KV{Key: "corpus" + suffix(i), Value: s + " digest " + r.Corpora[s]})
	}
	seen := make(map[string]bool)
	for _, c := range r.Cells {
		if im := c.Impl; im.Library != "" && !seen[im.Name] {
			seen[im.Name] = true
			kv = append(kv, workloads.KV{Key: "library-" + im.Name, Value: im.Library})
		}
	}
	costs := make(map[string]bool)
	for _, c := range r.Cells {
		if v := c.Params.Get("cost"); !costs[v] {
			costs[v] = true
			if note := workloads.CostNote(v); note != "" {
				kv = append(kv, workloads.KV{Key: "cost-" + v, Value: note})
			}
		}
	}
	kv = append(kv, workloads.KV{Key: "date", Value: r.Started.UTC().Format(time.RFC3339)})
	kv = append(kv, r.Labels...)
	if r.Incomplete {
		kv = append(kv, workloads.KV{Key: "incomplete", Value: "interrupted; only completed rounds are included"})
	}
	return kv
}

// reserved are the configuration keys perfrun writes itself; a label may
// not set them.
var reserved = []string{"goos", "goarch", "cpu", "cores", "go", "perfrun", "command", "rounds", "window", "warmup", "corpus", "date", "incomplete", "pkg", "library", "quarantined", "cost"}

// ParseLabel checks a user's key=value configuration line: a key as the
// Go benchmark format defines one — a lower-case letter first, then
// lower-case letters, digits, '-', '_' and '.' (an upper-case key such as
// BenchmarkX would read back as a result line) — not one perfrun writes,
// and a value on one line (a newline would let it write a benchmark line
// of its own).
func ParseLabel(s string) (workloads.KV, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" || !(k[0] >= 'a' && k[0] <= 'z') || strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) >= 0 {
		return workloads.KV{}, fmt.Errorf("bad -label %q: want key=value, the key a lower-case letter and then lower-case letters, digits, '-', '_' or '.'", s)
	}
	if records.OneLine(v) != v {
		return workloads.KV{}, fmt.Errorf("bad -label %.80q: the value must be one line of printable UTF-8, at most %d bytes", s, records.MaxConfigValue)
	}
	for _, r := range reserved {
		if k == r || strings.HasPrefix(k, r+"-") {
			return workloads.KV{}, fmt.Errorf("bad -label %q: %s is written by perfrun itself", s, k)
		}
	}
	return workloads.KV{Key: k, Value: v}, nil
}

func suffix(i int) string {
	if i == 0 {
		return ""
	}
	return "-" + strconv.Itoa(i+1)
}

// CPUName is this machine's processor as a results file's cpu: line
// names it.
func CPUName() string { return cpuName() }

// cpuName is the processor's name as go test writes it on its cpu: line:
// the CPUID brand string where there is one, else /proc/cpuinfo's model
// name, else the architecture.
func cpuName() string {
	if name := brandString(); name != "" {
		return name
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// Stamp is the revision a build says it is, set at link time
// (-ldflags=-X=github.com/perfrun/perfrun/harness.Stamp=COMMIT) by builds
// that know it where Go's own VCS stamp is missing: perfrun ab stamps the
// arms it builds, the workflows the perfrun they build.
var Stamp string

// Revision identifies the perfrun source that ran: Stamp, else the VCS
// revision Go stamped into the binary, else the revision of the folder the
// binary recorded as its main package's (go run of a clone, which Go does
// not stamp), else "unknown" — never what git says about the directory
// the binary happens to run in, which may be any repository at any commit.
func Revision() string {
	if Stamp != "" {
		return Stamp
	}
	if rev, dirty := selfsource.Stamp(); rev != "" {
		if dirty {
			rev += "-dirty"
		}
		return rev
	}
	if dir := selfsource.MainDir(); dir != "" {
		if rev := selfsource.GitRevision(dir); rev != "" {
			return rev
		}
	}
	return "unknown"
}
