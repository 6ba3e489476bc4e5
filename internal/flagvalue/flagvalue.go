// Package flagvalue holds the flag kinds whose values are checked where
// they are read: numbers one can measure with, fractions that take a
// percentage, whole numbers and durations with bounds. A value out of
// bounds is refused by the flag package's own error, naming the flag.
package flagvalue

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

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
		if f > 100 {
			return fmt.Errorf("%s is no fraction: want one below 1, such as 0.05, or a percentage, such as 5%%", s)
		}
		return fmt.Errorf("%s is a fraction of 1 or more: write %s%% for a percentage, or %s%% for %s as a fraction", s, s, strconv.FormatFloat(100*f, 'g', -1, 64), s)
	}
	*n.p = f
	return nil
}

// NumberVar defines a float flag that refuses what is not a number.
func NumberVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(number{p, false}, name, usage)
}

// FractionVar defines a fraction flag that also takes a percentage.
func FractionVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
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

// ParsePercent reads "2%" or "0.02" as a fraction strictly between 0 and
// 1, by the rules of every fraction flag (number); "" is 0 (not asked for).
func ParsePercent(s string) (float64, error) {
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

// bounded is a whole-number flag with its bounds, checked where it is
// read: every count a budget is made of (rounds, looks, windows) has one
// bound and one check, whichever path of its command reads it.
type bounded struct {
	p      *int
	lo, hi int
	why    string // why the bounds are where they are, if a reader needs it
}

func (b bounded) String() string {
	if b.p == nil {
		return ""
	}
	return strconv.Itoa(*b.p)
}

func (b bounded) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < b.lo || n > b.hi {
		return fmt.Errorf("want a whole number from %d to %d%s", b.lo, b.hi, b.why)
	}
	*b.p = n
	return nil
}

// BoundedVar defines a whole-number flag that takes lo to hi; why, if
// given, says why in the error (": paired statistics need 5").
func BoundedVar(fs *flag.FlagSet, p *int, name string, value, lo, hi int, usage string, why ...string) {
	*p = value
	fs.Var(bounded{p, lo, hi, strings.Join(why, "")}, name, fmt.Sprintf("%s (%d to %d)", usage, lo, hi))
}

// span is a duration flag with its bounds, checked where it is read.
type span struct {
	p      *time.Duration
	lo, hi time.Duration
	why    string
}

func (d span) String() string {
	if d.p == nil {
		return ""
	}
	return d.p.String()
}

func (d span) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || v < d.lo || v > d.hi {
		return fmt.Errorf("want a duration from %v to %v, such as 150ms or 30m%s", d.lo, d.hi, d.why)
	}
	*d.p = v
	return nil
}

// SpanVar defines a duration flag that takes lo to hi; why, as
// BoundedVar's.
func SpanVar(fs *flag.FlagSet, p *time.Duration, name string, value, lo, hi time.Duration, usage string, why ...string) {
	*p = value
	fs.Var(span{p, lo, hi, strings.Join(why, "")}, name, fmt.Sprintf("%s (%v to %v)", usage, lo, hi))
}
