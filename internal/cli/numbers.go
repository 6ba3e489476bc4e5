package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/workloads"
)

// number is a float flag that takes only numbers one can measure with
// (workloads.ParseNumber: no NaN, infinity or subnormal), and, where the
// flag is a fraction, a percentage: -threshold 5% is -threshold 0.05.
type number struct {
	p       *float64
	percent bool
}

func (n number) String() string {
	if n.p == nil {
		return ""
	}
	return strconv.FormatFloat(*n.p, 'g', -1, 64)
}

func (n number) Set(s string) error {
	f, err := parseNumber(s, n.percent)
	if err != nil {
		return err
	}
	// A fraction of 1 or more written without "%" is far more often a
	// percentage meant ("-threshold 5") than 500%: it is refused, never
	// read as either.
	if n.percent && f >= 1 && !strings.HasSuffix(strings.TrimSpace(s), "%") {
		return fmt.Errorf("%s is a fraction of 1 or more: write %s%% for a percentage, or %s%% for %s as a fraction", s, s, strconv.FormatFloat(100*f, 'g', -1, 64), s)
	}
	*n.p = f
	return nil
}

// numberVar defines a float flag that refuses what is not a number.
func numberVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(number{p, false}, name, usage)
}

// fractionVar defines a fraction flag that also takes a percentage.
func fractionVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(number{p, true}, name, usage+` (0.05 or "5%")`)
}

// parseNumber reads a number; with percent, "5%" is 0.05.
func parseNumber(s string, percent bool) (float64, error) {
	scale := 1.0
	if t, ok := strings.CutSuffix(strings.TrimSpace(s), "%"); ok && percent {
		s, scale = t, 0.01
	}
	f, err := workloads.ParseNumber(s)
	return f * scale, err
}

// parsePercent reads "2%" or "0.02" as a fraction strictly between 0 and
// 1, by the rules of every fraction flag (number); "" is 0 (not asked for).
func parsePercent(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	var v float64
	if err := (number{&v, true}).Set(s); err != nil {
		return 0, err
	}
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("not between 0%% and 100%%")
	}
	return v, nil
}
