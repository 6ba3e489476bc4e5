package ab

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// windowsHeader is the first row of a windows file. A file of an earlier
// ab has the first six columns (no cores) or seven (no transfer).
var windowsHeader = []string{"cell", "round", "arm", "value", "probe", "aside", "cores", "transfer"}

// WriteWindows is every window of a comparison, one row each, with the
// cores of the machine that measured them: what the report's strip plot
// draws, and what Replay judges again.
func WriteWindows(cells []string, windows map[string][]compare.Window, cores int) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(windowsHeader)
	for _, c := range cells {
		for _, x := range windows[c] {
			w.Write([]string{records.CSVText(c), strconv.Itoa(x.Round), x.Arm, strconv.FormatFloat(x.Value, 'g', -1, 64),
				strconv.FormatFloat(x.Probe, 'g', -1, 64), records.CSVText(x.Aside), strconv.Itoa(cores),
				transferText(x.Transfer)})
		}
	}
	w.Flush()
	return b.Bytes()
}

// transferText is a window's transfer as its column holds it: empty where
// none ran.
func transferText(t float64) string {
	if t < 0 {
		return ""
	}
	return strconv.FormatFloat(t, 'g', -1, 64)
}

// A Recording is the windows of a comparison read back: enough to judge
// it again without measuring (Replay).
type Recording struct {
	Cells   []*records.Cell
	Cores   int
	Windows map[string][]compare.Window
	// readTo is the first round the last Replay read none of.
	readTo int
}

// ErrBadWindows is returned for a windows file that is not one.
var ErrBadWindows = errors.New("not a windows file of perfrun ab")

// ReadWindows reads a windows file, refusing anything malformed: it may
// come from a run the reader does not trust. A file of an earlier ab,
// without the cores column, was measured on a machine of cores cores.
func ReadWindows(r io.Reader, cores int) (*Recording, error) {
	cr := csv.NewReader(io.LimitReader(r, 64<<20))
	head, err := cr.Read()
	known := err == nil && len(head) >= 6 && len(head) <= len(windowsHeader) && slices.Equal(head, windowsHeader[:len(head)])
	if !known {
		return nil, fmt.Errorf("%w: the first row is not %q", ErrBadWindows, windowsHeader)
	}
	cr.FieldsPerRecord = len(head)
	rec := &Recording{Windows: make(map[string][]compare.Window)}
	set := records.New("windows", "")
	for line := 2; ; line++ {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadWindows, err)
		}
		if len(row) < 7 {
			row = append(row, strconv.Itoa(cores))
		}
		if len(row) < 8 {
			row = append(row, "")
		}
		row[0], row[5] = records.FromCSVText(row[0]), records.FromCSVText(row[5])
		round, err1 := strconv.Atoi(row[1])
		value, err2 := strconv.ParseFloat(row[3], 64)
		probe, err3 := strconv.ParseFloat(row[4], 64)
		cores, err4 := strconv.Atoi(row[6])
		transfer, err5 := -1.0, error(nil)
		if row[7] != "" {
			transfer, err5 = strconv.ParseFloat(row[7], 64)
		}
		arm := row[2]
		switch {
		case errors.Join(err1, err2, err3, err4, err5) != nil, round < 0, round > 1<<20, cores < 1, cores > 1<<16,
			!(value > 0) || math.IsInf(value, 0), !(probe >= 0) || math.IsInf(probe, 0), // a time is positive
			row[7] != "" && !(transfer >= 0) || math.IsInf(transfer, 0),
			arm != ArmBase && arm != ArmHead && arm != ArmBase2, !CellName(row[0]), !oneLine(row[5]):
			return nil, fmt.Errorf("%w: line %d: %q", ErrBadWindows, line, row)
		}
		if rec.Cores == 0 {
			rec.Cores = cores
		} else if cores != rec.Cores {
			return nil, fmt.Errorf("%w: line %d: %d cores after %d: one file is one machine", ErrBadWindows, line, cores, rec.Cores)
		}
		name := row[0]
		if _, ok := rec.Windows[name]; !ok {
			set.Add(&benchfmt.Result{Name: benchfmt.Name(name), Iters: 1})
			c, _ := set.Cell(name)
			rec.Cells = append(rec.Cells, c)
		}
		rec.Windows[name] = append(rec.Windows[name], compare.Window{Round: round, Arm: arm, Value: value, Probe: probe, Transfer: transfer, Aside: row[5]})
	}
	if len(rec.Cells) == 0 {
		return nil, fmt.Errorf("%w: no windows", ErrBadWindows)
	}
	return rec, nil
}

// CellName says whether s can be a cell's name as a results file writes
// it: not empty, printable, with no space or line break (a name holding a
// newline would print a line of its own in the verdict, the workflow log
// and the report). Files a comparison recorded are checked with it.
func CellName(s string) bool {
	return s != "" && len(s) <= 1024 && utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r)
	}) < 0
}

// oneLine says whether s is printable text on one line.
func oneLine(s string) bool {
	return len(s) <= 1024 && utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
		return !unicode.IsPrint(r) && r != ' '
	}) < 0
}

// Replay judges a recording again as the runner decided it: each arm's
// value in a round is the median of its windows not set aside, and the
// looks are the runner's (rounds ids from (k-1)·rounds on at look k). The
// returned Looks stop where the recording stops, as the runner's budget
// stopped it.
func (rec *Recording) Replay(rounds, maxLooks int) (compare.Looks, compare.Measure) {
	last := -1
	for _, ws := range rec.Windows {
		for _, w := range ws {
			last = max(last, w.Round)
		}
	}
	looks := compare.Looks{Rounds: rounds, Max: maxLooks, Next: func(look int, undecided []string) bool {
		return (look-1)*rounds <= last
	}}
	measure := func(names []string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
		var cells []*records.Cell
		arms := make(map[string]compare.Arms)
		for _, c := range rec.Cells {
			if names != nil && !slices.Contains(names, c.Name) {
				continue
			}
			cells = append(cells, c)
			arms[c.Name] = armsOf(rec.Windows[c.Name], first, first+rounds)
		}
		rec.readTo = max(rec.readTo, first+rounds)
		return cells, arms, rec.Cores, nil
	}
	return looks, measure
}

// Unread says which of the recording's windows the last Replay read
// none of, as "rounds 30-39 (60 windows)"; "" where it read them all. A
// replay reads its looks' rounds alone: what lies past them is told, not
// dropped without a word.
func (rec *Recording) Unread() string {
	n, lo, hi := 0, -1, -1
	for _, ws := range rec.Windows {
		for _, w := range ws {
			if w.Round < rec.readTo {
				continue
			}
			n++
			if lo < 0 || w.Round < lo {
				lo = w.Round
			}
			hi = max(hi, w.Round)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("rounds %d-%d (%d windows)", lo, hi, n)
}
