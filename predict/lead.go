package predict

import (
	"fmt"
	"strings"
)

// lead says which term of the model moved a call's predicted time the
// most between base and head at n threads, in the direction the
// prediction moved: the lock, held how long, or the line whose time grew
// the most in a slower head, fell the most in a faster one. A count that
// fell is never the reason for a slower call. "" where no term moved that
// way.
func (p Prediction) lead(n int) string {
	k := p.constantsAt(n)
	b, errb := TermsAt(p.base, k, n)
	h, errh := TermsAt(p.head, k, n)
	ratio, _, _, ok := p.RatioAt(n)
	if errb != nil || errh != nil || !ok || ratio == 1 {
		return ""
	}
	terms := []struct {
		what     string
		from, to float64
		detail   func(Cell) string
	}{
		{busiestName(p.base, p.head), b.Busiest, h.Busiest, busiestDetail},
		{"the other exclusive locks' queues", b.Others, h.Others, othersDetail},
		{lineName(true, p.base.HottestSite, p.head.HottestSite), b.Hot, h.Hot, hotDetail},
		{lineName(false, p.base.OtherLineSite, p.head.OtherLineSite), b.Rest, h.Rest, restDetail},
		{"the readers parked for a writer of their read-write lock", b.Writer, h.Writer, writerDetail},
		{"each thread's own work", b.Alone, h.Alone, aloneDetail},
	}
	best, move := -1, 0.0
	for i, t := range terms {
		d := t.to - t.from
		if ratio < 1 {
			d = -d
		}
		if d > move {
			best, move = i, d
		}
	}
	if best < 0 {
		return ""
	}
	// The detail is of the arm where the term is larger: head's where it
	// grew, base's where it fell.
	t, arm, c := terms[best], "head", p.head
	if t.to < t.from {
		arm, c = "base", p.base
	}
	return fmt.Sprintf("%s %s -> %s a call (%s: %s)", t.what, duration(t.from), duration(t.to), arm, t.detail(c))
}

// busiestName names the busiest exclusive lock, by the function that
// took it where the profile knows it.
func busiestName(base, head Cell) string {
	site := head.BusiestSite
	if site == "" {
		site = base.BusiestSite
	}
	if site == "" {
		return "the busiest exclusive lock's queue"
	}
	return "the queue of the exclusive lock taken in " + function(site)
}

// lineName names the hottest line's term, or the other lines', by what
// the line is and where it was first written, head's where the profile
// knows it: "the hottest shared cache line: the reader count of a read
// lock taken in hashmap.Store.Issuer". A cause is cut at its first comma
// (causeAt), so the name has none.
func lineName(hottest bool, base, head string) string {
	term, of := "the other shared cache lines", " led by "
	if hottest {
		term, of = "the hottest shared cache line", ": "
	}
	site := head
	if site == "" {
		site = base
	}
	i := strings.LastIndex(site, " in ")
	if i < 0 {
		return term
	}
	return term + of + site[:i+len(" in ")] + function(site[i+len(" in "):])
}

// function is a Go function's name as a reason writes it: its package's
// last element, and no parentheses, which would end the short reason
// (log.Logger.output, singleflight.Group.Do).
func function(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	return strings.NewReplacer("(*", "", "(", "", ")", "").Replace(name)
}

func busiestDetail(c Cell) string {
	if !(c.BusiestLocks > 0) {
		return fmt.Sprintf("%.4g a call held %.4g instructions", c.ExclusiveLocks, c.LockedInstructions)
	}
	return fmt.Sprintf("%.4g a call held %.4g instructions", c.BusiestLocks, c.BusiestLocked)
}

func othersDetail(c Cell) string {
	return fmt.Sprintf("%.4g a call over %.3g locks", c.ExclusiveLocks-c.BusiestLocks, max(1, c.OtherLocks))
}

func hotDetail(c Cell) string {
	hot, _, _ := c.Lines()
	return fmt.Sprintf("%.4g transfers a call", hot)
}

func restDetail(c Cell) string {
	_, rest, others := c.Lines()
	return fmt.Sprintf("%.4g transfers a call over %.3g lines", rest, others)
}

func writerDetail(c Cell) string {
	return fmt.Sprintf("taken exclusively %.3g a call and shared %.3g", c.Writers, c.WriterReads)
}

func aloneDetail(c Cell) string {
	return fmt.Sprintf("%.4g instructions", c.Instructions)
}

// duration is a time as a reason writes it: 870 ns, 5.07 µs.
func duration(sec float64) string {
	if sec >= 1e-5 {
		return fmt.Sprintf("%.1f µs", 1e6*sec)
	}
	if sec >= 1e-6 {
		return fmt.Sprintf("%.2f µs", 1e6*sec)
	}
	return fmt.Sprintf("%.0f ns", 1e9*sec)
}
