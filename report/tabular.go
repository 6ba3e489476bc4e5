package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/perfrun/perfrun/records"
)

// Schema names the layout of the JSON output; it changes when a field's
// meaning does.
const Schema = "perfrun-results/1"

// Row is one cell and unit summarized across rounds, the unit of the CSV
// and JSON outputs. A statistic that the rounds cannot give (the median's
// confidence interval from too few rounds, a variance from one round) is
// null in JSON and empty in CSV, and Note says why: neither format ever
// holds an infinity.
type Row struct {
	Name           string    `json:"name"`
	Group          string    `json:"group"`
	Impl           string    `json:"impl"`
	Threads        int       `json:"threads"`
	Oversubscribed bool      `json:"oversubscribed"`
	Unit           string    `json:"unit"`
	N              int       `json:"n"`
	Mean           *float64  `json:"mean"`
	Variance       *float64  `json:"variance"`
	Std            *float64  `json:"std"`
	CV             *float64  `json:"cv"`
	Median         *float64  `json:"median"`
	MedianLo       *float64  `json:"median_lo"`
	MedianHi       *float64  `json:"median_hi"`
	Note           string    `json:"note,omitempty"`
	Values         []float64 `json:"values"`
}

// finite returns x, or nil when x is not a finite number.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// predicted says whether a cell is a prediction's (perfrun predict's
// records say predicted: yes), not a measurement.
func predicted(c *records.Cell) bool {
	return c.First != nil && records.ConfigOf(c.First, "predicted") != ""
}

// Rows summarizes every cell and unit of the set.
func Rows(s *records.Set, cores int) []Row {
	var rows []Row
	for _, c := range s.Cells() {
		for _, unit := range c.Units {
			v := c.Values[unit]
			sum := records.Summarize(v)
			r := Row{
				Name: c.Name, Group: c.Group, Impl: c.Impl, Threads: c.Threads,
				Oversubscribed: cores > 0 && c.Threads > cores, Unit: unit, N: sum.N,
				Mean: finite(sum.Mean), Median: finite(sum.Median),
				MedianLo: finite(sum.Lo), MedianHi: finite(sum.Hi), Values: v,
			}
			switch {
			case predicted(c):
				// A prediction has no rounds: its one value is the model's,
				// its band in units of its own.
				r.Note = "predicted, not measured (perfrun predict)"
				r.MedianLo, r.MedianHi = nil, nil
			case sum.N > 1:
				r.Variance, r.Std, r.CV = finite(sum.Variance), finite(sum.Std), finite(sum.CV)
			default:
				r.Note = "one round: no variance"
			}
			if (r.MedianLo == nil || r.MedianHi == nil) && !predicted(c) {
				r.MedianLo, r.MedianHi = nil, nil
				r.Note = join(r.Note, "too few rounds for a 95% confidence interval of the median")
			}
			rows = append(rows, r)
		}
	}
	return rows
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// WriteCSV writes one line per cell and unit with its statistics.
func WriteCSV(w io.Writer, s *records.Set, cores int) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "group", "impl", "threads", "oversubscribed", "unit",
		"n", "mean", "variance", "std", "cv", "median", "median_lo", "median_hi", "note"})
	f := func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'g', 8, 64)
	}
	for _, r := range Rows(s, cores) {
		cw.Write([]string{cell(r.Name), cell(r.Group), cell(r.Impl), strconv.Itoa(r.Threads),
			strconv.FormatBool(r.Oversubscribed), cell(r.Unit), strconv.Itoa(r.N),
			f(r.Mean), f(r.Variance), f(r.Std), f(r.CV), f(r.Median), f(r.MedianLo), f(r.MedianHi), cell(r.Note)})
	}
	cw.Flush()
	return cw.Error()
}

// cell is a name as a CSV cell a spreadsheet reads as text
// (records.CSVText).
func cell(s string) string { return records.CSVText(s) }

// WriteJSON writes the configuration and every row as one JSON document.
func WriteJSON(w io.Writer, s *records.Set, cores int) error {
	config := make(map[string]string)
	if r := s.FirstRecord(); r != nil {
		for _, c := range r.Config {
			if c.File {
				config[c.Key] = string(c.Value)
			}
		}
	}
	enc := json.NewEncoder(records.VisibleWriter{W: w})
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Schema     string            `json:"schema"`
		Config     map[string]string `json:"config"`
		Incomplete bool              `json:"incomplete"`
		Rows       []Row             `json:"rows"`
	}{Schema, config, config["incomplete"] != "", Rows(s, cores)})
}
