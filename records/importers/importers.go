// Package importers reads other benchmark tools' results into perfrun's
// records — benchfmt results with their units — so that compare, gate and
// history take them as they take perfrun's own. Each reader keeps every
// sample the tool recorded (a run, a repetition), so perfrun's statistics
// see the tool's own spread, and says in a configuration line which tool
// and file the numbers came from.
//
// Its place: beside records, below everything that reads results.
//
// Its promise: each reader's -format name, and the records it makes: one
// sample per run the tool recorded, with the imported and source
// configuration lines.
package importers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// ErrFormat is returned for input that is not the format asked for.
var ErrFormat = errors.New("not in the format")

// An Importer reads one tool's output into a set of records.
type Importer struct {
	Name string // as -format names it
	Doc  string // what it reads
	Read func(r io.Reader, file string) (*records.Set, error)
}

// All are the importers, by name.
var All = []Importer{
	{"hyperfine", "hyperfine --export-json FILE: every run of each command, in ns/op", readHyperfine},
	{"googlebenchmark", "a Google Benchmark binary's --benchmark_format=json: every repetition, real and CPU time", readGoogleBenchmark},
	{"jmh", "JMH's -rf json: every measurement iteration of every fork, in ns/op and ns/call (thrpt inverted), with JMH's score and error", readJMH},
	{"callgrind", "valgrind --tool=callgrind's output file(s): the whole run's event totals, Ir as instructions/op", readCallgrind},
}

// Import reads r with the importer and refuses, at the door, any value no
// measurement gives: not finite, negative, or zero in a unit of time or
// instructions (zero allocations is a count; zero time is not a time).
func (im Importer) Import(r io.Reader, file string) (*records.Set, error) {
	set, err := im.Read(r, file)
	if err != nil {
		return nil, err
	}
	for _, rec := range set.Records {
		for _, v := range rec.Values {
			zeroOK := v.Unit == records.AllocsPerOp || v.Unit == "B/op"
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) || v.Value < 0 || v.Value == 0 && !zeroOK {
				return nil, fmt.Errorf("%s: %w: %s has %v %s: not a measurement", file, ErrFormat, rec.Name, v.Value, v.Unit)
			}
		}
	}
	return set, nil
}

// Lookup finds an importer by name.
func Lookup(name string) (Importer, error) {
	var names []string
	for _, im := range All {
		if im.Name == name {
			return im, nil
		}
		names = append(names, im.Name)
	}
	return Importer{}, fmt.Errorf("unknown format %q (have %s)", name, strings.Join(names, ", "))
}

// benchName makes a tool's benchmark name a Go benchmark name: no
// whitespace (it would end the name), no slash (it would start a name
// key), and no control or bidirectional character (escaped: a name is
// data on every output).
func benchName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' {
			return '_'
		}
		return r
	}, records.OneLine(strings.TrimSpace(s)))
	if s == "" {
		return "unnamed"
	}
	return s
}

// config is the configuration lines of an imported record.
func config(tool, file string) []benchfmt.Config {
	return []benchfmt.Config{
		{Key: "imported", Value: []byte(tool), File: true},
		{Key: "source", Value: []byte(file), File: true},
	}
}
