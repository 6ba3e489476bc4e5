package results

import (
	"errors"
	"fmt"
	"io"
	"math"

	"golang.org/x/perf/benchfmt"
)

// ErrNoResults is returned for a file that holds no benchmark result.
var ErrNoResults = errors.New("no benchmark results")

// ReadFile reads a Go benchmark format file. As benchstat, a spec
// "label=path" names the set (benchfmt.Files with AllowLabels); otherwise
// the path is its label.
func ReadFile(spec string) (*Set, error) {
	files := &benchfmt.Files{Paths: []string{spec}, AllowLabels: true}
	var s *Set
	for files.Scan() {
		rec := files.Result()
		if s == nil {
			file, _ := rec.Pos()
			s = New("", file)
		}
		s.add(rec)
	}
	if err := files.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("%s: %w", spec, ErrNoResults)
	}
	for _, u := range files.Units() {
		s.AddUnit(u)
	}
	if len(s.Records) > 0 {
		s.Label = s.Records[0].GetConfig(".file")
	}
	return s, s.check()
}

// Read reads results from r; file names the input in messages.
func Read(r io.Reader, file, label string) (*Set, error) {
	s := New(label, file)
	br := benchfmt.NewReader(r, file)
	for br.Scan() {
		s.add(br.Result())
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for _, u := range br.Units() {
		s.AddUnit(u)
	}
	return s, s.check()
}

// add takes one record of a reader: a result, unit metadata, or a syntax
// error the reader carries on past.
func (s *Set) add(rec benchfmt.Record) {
	switch rec := rec.(type) {
	case *benchfmt.SyntaxError:
		s.Warnings = append(s.Warnings, rec)
	case *benchfmt.Result:
		// benchmath never returns on NaN, and no measurement is infinite:
		// such values are skipped with a warning.
		kept := rec.Values[:0]
		for _, v := range rec.Values {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				file, line := rec.Pos()
				s.Warnings = append(s.Warnings, fmt.Errorf("%s:%d: non-finite %v %s skipped", file, line, v.Value, v.Unit))
				continue
			}
			// benchfmt's reader leaves the unit untidied when tidying does
			// not change the value (0 ns/op stays ns/op): tidy by unit.
			if v.OrigUnit == "" {
				v = Value(v.Value, v.Unit)
			}
			kept = append(kept, v)
		}
		rec.Values = kept
		// The reader reuses its result: keep a copy.
		s.Add(rec.Clone())
	}
}

func (s *Set) check() error {
	if len(s.Records) > 0 {
		return nil
	}
	if len(s.Warnings) > 0 {
		return fmt.Errorf("%s: %w (first problem: %v)", s.File, ErrNoResults, s.Warnings[0])
	}
	return fmt.Errorf("%s: %w", s.File, ErrNoResults)
}
