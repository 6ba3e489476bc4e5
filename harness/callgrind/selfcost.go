package callgrind

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// SelfCosts reads a callgrind output file written with
// --compress-strings=no and returns, by function, the cost of event that
// the function's own instructions caused: the cost lines under its fn=
// line, not those that follow a calls= line (a call's inclusive cost).
func SelfCosts(r io.Reader, event string) (map[string]float64, error) {
	self, _, err := costs(r, event, nil)
	return self, err
}

// costs is SelfCosts and, beside it, the inclusive cost of event of every
// call from a function into one that into says yes to, summed.
func costs(r io.Reader, event string, into func(caller, callee string) bool) (map[string]float64, float64, error) {
	out := make(map[string]float64)
	var calls float64
	column, fn, cfn, skip := -1, "", "", false
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, "events:"):
			column = slices.Index(strings.Fields(strings.TrimPrefix(line, "events:")), event)
		case strings.HasPrefix(line, "fn="):
			fn = strings.TrimPrefix(line, "fn=")
		case strings.HasPrefix(line, "cfn="):
			cfn = strings.TrimPrefix(line, "cfn=")
		case strings.HasPrefix(line, "calls="):
			skip = true
		case line != "" && strings.ContainsRune("0123456789+-*", rune(line[0])):
			// A position (the line), then the events in order; callgrind
			// leaves out the zeros at the end.
			f := strings.Fields(line)
			v := 0.0
			if column >= 0 && 1+column < len(f) {
				var err error
				if v, err = strconv.ParseFloat(f[1+column], 64); err != nil {
					return nil, 0, fmt.Errorf("callgrind's cost line %q: %w", line, err)
				}
			}
			if skip {
				// The line after calls=: that call's inclusive cost.
				skip = false
				if into != nil && into(fn, cfn) {
					calls += v
				}
				continue
			}
			out[fn] += v
		}
	}
	if column < 0 {
		return nil, 0, fmt.Errorf("callgrind's output names no event %s", event)
	}
	return out, calls, s.Err()
}
