package importers

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// readCallgrind reads a callgrind output file's header: the command, the
// events and their totals (summary:, else totals:). It makes one record of
// the whole profiled run — one operation — named by the command, with Ir
// as instructions/op (the unit perfrun's gate compares exactly) and any
// other event as EVENT/op. Several files of one command are several
// records; cat them together.
func readCallgrind(r io.Reader, file string) (*records.Set, error) {
	sc := bufio.NewScanner(io.LimitReader(r, 256<<20))
	sc.Buffer(nil, 1<<20)
	var cmd string
	var events, totals []string
	sawFormat := false
	set := records.New("", file)
	flush := func() error {
		if events == nil && totals == nil {
			return nil
		}
		if len(totals) != len(events) || len(events) == 0 {
			return fmt.Errorf("%s: %w callgrind writes: %d events, %d totals", file, ErrFormat, len(events), len(totals))
		}
		var values []benchfmt.Value
		seen := make(map[string]bool)
		for i, e := range events {
			// An event named twice would give one unit two values per
			// record, which a reader mixes into one sample.
			if seen[e] {
				return fmt.Errorf("%s: %w callgrind writes: event %s named twice", file, ErrFormat, e)
			}
			seen[e] = true
			n, err := strconv.ParseFloat(totals[i], 64)
			if err != nil || n < 0 {
				return fmt.Errorf("%s: %w callgrind writes: total %q", file, ErrFormat, totals[i])
			}
			unit := benchName(e) + "/op"
			if e == "Ir" {
				unit = records.Instructions
			}
			values = append(values, benchfmt.Value{Value: n, Unit: unit})
		}
		set.Add(&benchfmt.Result{Config: config("callgrind", file), Name: benchfmt.Name(benchName(cmd)), Iters: 1, Values: values})
		events, totals = nil, nil
		return nil
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# callgrind format") {
			sawFormat = true
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "cmd":
			cmd = value
		case "events":
			events = strings.Fields(value)
		case "summary":
			totals = strings.Fields(value)
		case "totals":
			if totals == nil {
				totals = strings.Fields(value)
			}
		case "version":
			// A second file concatenated after this one.
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if !sawFormat || len(set.Records) == 0 {
		return nil, fmt.Errorf("%s: %w callgrind writes: no events and totals", file, ErrFormat)
	}
	return set, nil
}
