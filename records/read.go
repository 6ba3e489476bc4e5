package records

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/internal/regularfile"
)

// ErrNoResults is returned for a file that holds no benchmark result.
var ErrNoResults = errors.New("no benchmark results")

// ReadFile reads a Go benchmark format file. As benchstat, a spec
// "label=path" names the set (benchfmt.Files with AllowLabels); otherwise
// the path is its label. The set keeps each cell's values and first record,
// not every record: its memory grows with the cells, not the lines.
func ReadFile(spec string) (*Set, error) { return ReadFileWithout(spec) }

// ReadFileWithout is ReadFile with the name keys ignore left out of every
// benchmark name, as benchstat's -ignore leaves them out: cells that
// differ only in them become one cell, in one group (one picture).
// Drawing a published table beside a run that names its corpus needs it.
func ReadFileWithout(spec string, ignore ...string) (*Set, error) {
	label, path := spec, spec
	if i := strings.Index(spec, "="); i >= 0 {
		label, path = spec[:i], spec[i+1:]
	}
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sum := sha256.New()
	br := benchfmt.NewReader(nil, path)
	br.Reset(&bounded{r: io.TeeReader(f, sum), left: MaxFileBytes, name: path}, path, ".file", label)
	var s *Set
	for br.Scan() {
		rec := br.Result()
		if s == nil {
			s = New("", path)
		}
		if r, ok := rec.(*benchfmt.Result); ok && len(ignore) > 0 {
			r.Name = withoutKeys(r.Name, ignore)
		}
		s.add(rec)
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("%s: %w", spec, ErrNoResults)
	}
	for _, u := range br.Units() {
		s.AddUnit(u)
	}
	if s.first != nil {
		s.Label = s.first.GetConfig(".file")
	}
	s.Digest = hex.EncodeToString(sum.Sum(nil))
	return s, s.check()
}

// MaxFileBytes bounds a results file read from a path: far more than any
// run writes, far less than memory, so a FIFO or /dev/zero given as a
// results file is an error, not a process that reads until it dies.
const MaxFileBytes = 256 << 20

// ErrTooLarge is returned for input beyond MaxFileBytes.
var ErrTooLarge = errors.New("larger than a results file can be")

// bounded reads r and fails once more than left bytes came.
type bounded struct {
	r    io.Reader
	left int64
	name string
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("%s: %w (%d MiB)", b.name, ErrTooLarge, MaxFileBytes>>20)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("%s: %w (%d MiB)", b.name, ErrTooLarge, MaxFileBytes>>20)
	}
	return n, err
}

// ReadFiles reads several files as one set named label: the rounds of one
// arm measured by several processes.
func ReadFiles(label string, paths ...string) (*Set, error) {
	files := &benchfmt.Files{Paths: paths}
	s := New(label, "")
	for files.Scan() {
		s.add(files.Result())
	}
	if err := files.Err(); err != nil {
		return nil, err
	}
	for _, u := range files.Units() {
		s.AddUnit(u)
	}
	return s, s.check()
}

// Read reads results from r; file names the input in messages. Unlike
// ReadFile, it keeps every record, so the set can be written again.
func Read(r io.Reader, file, label string) (*Set, error) {
	s := New(label, file)
	s.keep = true
	br := benchfmt.NewReader(r, file)
	for br.Scan() {
		s.add(br.Result())
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, u := range br.Units() {
		s.AddUnit(u)
	}
	return s, s.check()
}

// A NonFinite is a value a reader skipped, with a warning: NaN or
// infinite, which no measurement or count is. What decides on a file's
// counts refuses the file when it finds one (a missing count must not
// read as no count).
type NonFinite struct {
	File  string
	Line  int
	Value float64
	Unit  string
}

func (e *NonFinite) Error() string {
	return fmt.Sprintf("%s:%d: non-finite %v %s skipped", e.File, e.Line, e.Value, e.Unit)
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
				s.Warnings = append(s.Warnings, &NonFinite{File: file, Line: line, Value: v.Value, Unit: v.Unit})
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
		if s.keep {
			// The reader reuses its result: keep a copy.
			s.Add(rec.Clone())
			return
		}
		// Index copies what it keeps: memory grows with cells, not lines.
		s.index(rec, false)
	}
}

func (s *Set) check() error {
	if s.first != nil {
		return nil
	}
	if len(s.Warnings) > 0 {
		return fmt.Errorf("%s: %w (first problem: %v)", s.File, ErrNoResults, s.Warnings[0])
	}
	return fmt.Errorf("%s: %w", s.File, ErrNoResults)
}
