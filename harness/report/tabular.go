package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

	"github.com/perfrun/perfrun/harness"
)

// Row is one cell and metric summarized across rounds, the unit of the CSV
// and JSON outputs.
type Row struct {
	Name           string            `json:"name"`
	Workload       string            `json:"workload"`
	Impl           string            `json:"impl"`
	Params         map[string]string `json:"params"`
	Threads        int               `json:"threads"`
	Oversubscribed bool              `json:"oversubscribed"`
	Unit           string            `json:"unit"`
	harness.Summary
	Values []float64 `json:"values"`

	cell harness.Cell
}

// Rows summarizes every cell and unit of the results.
func Rows(res *harness.Results) []Row {
	var rows []Row
	for _, c := range res.Cells {
		params := make(map[string]string)
		for _, kv := range c.Params {
			params[kv.Key] = kv.Value
		}
		for _, unit := range res.Units(c) {
			v := res.Values(c, unit)
			rows = append(rows, Row{
				Name: c.Name(), Workload: c.Workload.Name, Impl: c.Impl.Name, Params: params,
				Threads: c.Threads, Oversubscribed: c.Oversubscribed(), Unit: unit,
				Summary: harness.Summarize(v), Values: v, cell: c,
			})
		}
	}
	return rows
}

// WriteCSV writes one line per cell and metric with its statistics.
func WriteCSV(w io.Writer, res *harness.Results) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "workload", "impl", "params", "threads", "oversubscribed", "unit",
		"n", "mean", "variance", "std", "cv", "median", "median_lo", "median_hi"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for _, r := range Rows(res) {
		cw.Write([]string{r.Name, r.Workload, r.Impl, r.cell.Params.String(), strconv.Itoa(r.Threads),
			strconv.FormatBool(r.Oversubscribed), r.Unit, strconv.Itoa(r.N),
			f(r.Mean), f(r.Variance), f(r.Std), f(r.CV), f(r.Median), f(r.Lo), f(r.Hi)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the environment and every row as one JSON document.
func WriteJSON(w io.Writer, res *harness.Results) error {
	env := make(map[string]string)
	for _, kv := range res.Environment() {
		env[kv.Key] = kv.Value
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Environment map[string]string `json:"environment"`
		Incomplete  bool              `json:"incomplete"`
		Rows        []Row             `json:"rows"`
	}{env, res.Incomplete, Rows(res)})
}
