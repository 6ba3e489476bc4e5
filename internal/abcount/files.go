package abcount

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/records"
)

// A countFile is one of the files ab -report records its counts in,
// beside windows.csv, and -replay reads back as untrusted input: a CSV
// file whose first row names its columns, then a row a count — its cell,
// its arm, and the count's own columns — each cell once, base's rows
// before head's. The instructions, traffic and lock profiles files are
// three of it, differing only in a count's columns.
type countFile[T any] struct {
	what    string   // the file, in a message: "an instructions file"
	count   string   // a row, in a message: "a count"
	columns []string // a count's columns, after cell and arm
	format  func(T) []string
	parse   func(columns []string) (T, bool)
}

// header is a file's first row.
func (f countFile[T]) header() []string { return append([]string{"cell", "arm"}, f.columns...) }

// write is every count of counts, each cell of names once.
func (f countFile[T]) write(names []string, counts map[string][2][]T) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(f.header())
	var done []string
	for _, name := range names {
		if slices.Contains(done, name) {
			continue
		}
		done = append(done, name)
		for side, arm := range sides {
			for _, v := range counts[name][side] {
				w.Write(append([]string{records.CSVText(name), arm}, f.format(v)...))
			}
		}
	}
	w.Flush()
	return b.Bytes()
}

// read reads a file as untrusted input, failing closed: a file of another
// shape, a row whose count does not parse, of no arm or of no cell's
// name, or a cell without both arms' counts refuses it.
func (f countFile[T]) read(data []byte) (names []string, counts map[string][2][]T, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	header := f.header()
	r.FieldsPerRecord = len(header)
	rows, err := r.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("not %s of perfrun ab (%w)", f.what, err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], header) {
		return nil, nil, fmt.Errorf("not %s of perfrun ab: its first row is not %q", f.what, strings.Join(header, ","))
	}
	counts = make(map[string][2][]T)
	for i, row := range rows[1:] {
		row[0] = records.FromCSVText(row[0])
		side := slices.Index(sides[:], row[1])
		v, ok := f.parse(row[2:])
		if !ok || side < 0 || !ab.CellName(row[0]) {
			return nil, nil, fmt.Errorf("line %d: %q is not %s", i+2, row, f.count)
		}
		c, seen := counts[row[0]]
		if !seen {
			names = append(names, row[0])
		}
		c[side] = append(c[side], v)
		counts[row[0]] = c
	}
	for _, name := range names {
		for side, c := range counts[name] {
			if len(c) == 0 {
				return nil, nil, fmt.Errorf("%s has no count of %s: a cell is judged on both arms' counts or not at all", name, sides[side])
			}
		}
	}
	return names, counts, nil
}

// sides are the arms a count file names, in the order of a count's sides.
var sides = [2]string{compare.ArmBase, compare.ArmHead}

// countText is a count as a file holds it: exactly, to read back the same.
func countText(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// parseCounts parses columns of counts, each finite and not negative.
func parseCounts(columns []string) ([]float64, bool) {
	v := make([]float64, len(columns))
	for i, c := range columns {
		var err error
		if v[i], err = strconv.ParseFloat(c, 64); err != nil || !(v[i] >= 0) || math.IsInf(v[i], 0) {
			return nil, false
		}
	}
	return v, true
}

// verdicts judges each cell of names that m has, in their order, at the
// time threshold (ab's counts are judged against the change the windows
// must find), judge giving a cell's verdicts.
func verdicts[T any](th compare.Thresholds, names []string, m map[string]T, judge func(th compare.Thresholds, name string, v T) []compare.CellVerdict) []compare.CellVerdict {
	th.InstructionsRatio = th.MinEffect
	var out []compare.CellVerdict
	for _, name := range names {
		if v, ok := m[name]; ok {
			out = append(out, judge(th, name, v)...)
		}
	}
	return out
}
