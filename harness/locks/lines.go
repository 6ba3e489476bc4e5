package locks

import (
	"slices"
	"unsafe"
)

// lineSize is the cache line the profile groups atomics by: the unit a
// core owns and another must take from it to write.
const lineSize = 64

// atomicSlots is how many distinct addresses the counting pass tells
// apart; the writes to any more are counted as spilled (each taken as a
// line of its own: a store that writes that many addresses spreads them).
const atomicSlots = 1 << 13

// addresses counts, in the counting pass, the writes of sync/atomic's
// types by address (the overlay's hook), in a table made before the pass:
// the hook allocates nothing, so it adds no atomic of the allocator's to
// the count.
type addresses struct {
	slots   [atomicSlots]addressCount
	used    int
	spilled int64
}

type addressCount struct {
	addr uintptr
	n    int64
}

func (a *addresses) write(p unsafe.Pointer) { a.add(uintptr(p)) }

func (a *addresses) add(addr uintptr) {
	i := int(uint64(addr>>3) * 0x9E3779B97F4A7C15 >> 51) // 13 bits: atomicSlots
	for range atomicSlots {
		s := &a.slots[i]
		if s.addr == addr {
			s.n++
			return
		}
		if s.addr == 0 {
			if a.used >= atomicSlots*3/4 {
				break
			}
			s.addr, s.n = addr, 1
			a.used++
			return
		}
		i = (i + 1) % atomicSlots
	}
	a.spilled++
}

// visits counts, in the lines pass, the operations that write each line:
// a line an operation writes twice is one visit, since the second write
// finds the line in the core's cache unless another thread took it in
// between. Its table is keyed by the line's first address.
type visits struct {
	addresses
	op    [opLines]uintptr // the lines this operation wrote so far
	opLen int
}

// opLines is how many lines one operation's visits tell apart; the writes
// to any more are each a visit.
const opLines = 32

// next begins an operation.
func (v *visits) next() { v.opLen = 0 }

func (v *visits) write(p unsafe.Pointer) {
	line := uintptr(p) / lineSize * lineSize
	if slices.Contains(v.op[:v.opLen], line) {
		return
	}
	if v.opLen < opLines {
		v.op[v.opLen] = line
		v.opLen++
	}
	v.addresses.add(line)
}

// A LineCount is one cache line's writes over all operations, and the
// operations that wrote it.
type LineCount struct {
	Writes int64 `json:"writes"`
	Visits int64 `json:"visits"`
}

// lines are the writes counted per cache line with the operations that
// visited each, most written first; a spilled write is a line of its own,
// and a visit.
func lines(written *addresses, visited *visits) []LineCount {
	per := make(map[uintptr]*LineCount)
	at := func(line uintptr) *LineCount {
		if per[line] == nil {
			per[line] = &LineCount{}
		}
		return per[line]
	}
	for _, s := range written.slots {
		if s.addr != 0 {
			at(s.addr / lineSize).Writes += s.n
		}
	}
	for _, s := range visited.slots {
		if s.addr != 0 {
			at(s.addr / lineSize).Visits += s.n
		}
	}
	out := make([]LineCount, 0, len(per)+int(written.spilled))
	for _, c := range per {
		out = append(out, LineCount{Writes: c.Writes, Visits: min(c.Visits, c.Writes)})
	}
	for range written.spilled {
		out = append(out, LineCount{Writes: 1, Visits: 1})
	}
	slices.SortFunc(out, func(x, y LineCount) int { return int(y.Writes - x.Writes) })
	return out
}

// Lines is how an operation's atomics on lines other threads may write
// spread over the lines, as far as one thread can tell: Hottest are the
// atomics per operation on the most written line; Others is how many
// lines of equal weight the rest would make (their sum squared over their
// squares' sum; 0 where there is no rest); and OtherVisits are the
// operations' visits to those lines, per operation: a write to a line the
// same operation wrote before is no visit. The atomics whose address the
// profile does not see (sync/atomic's functions, a C library's) are taken
// as one line, each write a visit.
type Lines struct {
	Hottest, Others, OtherVisits float64
}

// spread is Lines of shared atomics per operation, given the writes and
// visits per line the hook counted over ops operations: what the hook saw
// is scaled to shared where it saw more (a write lock's own reader-count
// writes are among shared's), and what it did not see is one line more.
func spread(shared float64, counted []LineCount, ops int) Lines {
	if !(shared > 0) {
		return Lines{}
	}
	type line struct{ writes, visits float64 }
	per := make([]line, 0, len(counted)+1)
	seen := 0.0
	for _, c := range counted {
		w := float64(c.Writes) / float64(ops)
		per = append(per, line{w, float64(c.Visits) / float64(ops)})
		seen += w
	}
	if seen > shared {
		for i := range per {
			per[i].writes *= shared / seen
			per[i].visits *= shared / seen
		}
	} else if unseen := shared - seen; unseen > 1e-9 {
		per = append(per, line{unseen, unseen})
	}
	slices.SortStableFunc(per, func(x, y line) int {
		switch {
		case x.writes > y.writes:
			return -1
		case x.writes < y.writes:
			return 1
		}
		return 0
	})
	l := Lines{Hottest: per[0].writes}
	var sum, squares float64
	for _, v := range per[1:] {
		sum += v.writes
		squares += v.writes * v.writes
		l.OtherVisits += v.visits
	}
	if squares > 0 {
		l.Others = sum * sum / squares
	}
	return l
}
