// Package compare reads results files and decides what changed between
// them: benchstat's comparison (median, confidence interval, Mann-Whitney
// U through golang.org/x/perf/benchmath), hyperfine-style speedups between
// implementations, and the gate verdict a CI job acts on.
//
// Its opinion: a CI gate must never cry wolf. Comparing many cells at
// alpha 0.05 with no correction alarms on about one in twenty unchanged
// cells, and a noisy machine swings far more than any threshold, so the
// gate corrects for the number of cells (Holm), demands a minimum effect,
// never gates cells whose threads only time-slice, and says INCONCLUSIVE
// rather than REGRESSION when the data cannot decide. Exact metrics
// (allocs/op, instructions/op) need no statistics and gate on plain
// thresholds.
package compare

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"

	"golang.org/x/perf/benchfmt"
)

// Set is the samples of one results file: per benchmark name and unit, the
// values of every round, in file order.
type Set struct {
	Label string
	File  string
	Names []string // benchmark names in first-seen order
	// Values maps name -> unit -> values, in the units the file wrote.
	Values map[string]map[string][]float64
	// Cores is the file's "cores" configuration, 0 if absent.
	Cores int
	// Config is the file-level configuration, last value of each key.
	Config map[string]string
	// Warnings are lines that did not parse; the reader carries on.
	Warnings []error
}

// ErrNoResults is returned for a file that holds no benchmark result.
var ErrNoResults = errors.New("no benchmark results")

// ReadFile reads a Go benchmark format file. A spec "label=path" names the
// set; otherwise the path is the label.
func ReadFile(spec string) (*Set, error) {
	label, path := spec, spec
	if l, p, ok := cutLabel(spec); ok {
		label, path = l, p
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, label)
}

// cutLabel splits "label=path" when the part before "=" is a plain word
// and the file does not itself exist under the whole name.
func cutLabel(spec string) (label, path string, ok bool) {
	if _, err := os.Stat(spec); err == nil {
		return "", "", false
	}
	m := regexp.MustCompile(`^([A-Za-z0-9_.-]+)=(.+)$`).FindStringSubmatch(spec)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// Read reads results from r; file names the input in messages.
func Read(r io.Reader, file, label string) (*Set, error) {
	s := &Set{Label: label, File: file, Values: make(map[string]map[string][]float64), Config: make(map[string]string)}
	br := benchfmt.NewReader(r, file)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			s.Warnings = append(s.Warnings, rec)
		case *benchfmt.Result:
			name := string(rec.Name)
			if s.Values[name] == nil {
				s.Values[name] = make(map[string][]float64)
				s.Names = append(s.Names, name)
			}
			for _, v := range rec.Values {
				unit, value := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, value = v.OrigUnit, v.OrigValue
				}
				// benchmath loops forever on NaN; no measurement is
				// infinite either.
				if math.IsNaN(value) || math.IsInf(value, 0) {
					s.Warnings = append(s.Warnings, fmt.Errorf("%s: %s: non-finite %v %s skipped", file, name, value, unit))
					continue
				}
				s.Values[name][unit] = append(s.Values[name][unit], value)
			}
			for _, c := range rec.Config {
				if c.File {
					s.Config[c.Key] = string(c.Value)
				}
			}
			if c := s.Config["cores"]; c != "" {
				s.Cores, _ = strconv.Atoi(c)
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(s.Names) == 0 {
		if len(s.Warnings) > 0 {
			return nil, fmt.Errorf("%w (first problem: %v)", ErrNoResults, s.Warnings[0])
		}
		return nil, fmt.Errorf("%s: %w", file, ErrNoResults)
	}
	return s, nil
}

// Shared returns the names present in both sets, in a's order, and an
// error if there are none.
func Shared(a, b *Set) ([]string, error) {
	var out []string
	for _, n := range a.Names {
		if _, ok := b.Values[n]; ok {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s and %s share no benchmark", a.File, b.File)
	}
	return out, nil
}

var threadsKey = regexp.MustCompile(`(?:^|/)threads=(\d+)(?:/|$)`)

// Threads returns the threads=N key of a benchmark name, 0 if none.
func Threads(name string) int {
	m := threadsKey.FindStringSubmatch(name)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

var implKey = regexp.MustCompile(`/impl=([^/]+)`)

// SplitImpl returns a benchmark name without its impl key, and the impl.
func SplitImpl(name string) (rest, impl string) {
	m := implKey.FindStringSubmatchIndex(name)
	if m == nil {
		return name, ""
	}
	return name[:m[0]] + name[m[1]:], name[m[2]:m[3]]
}
