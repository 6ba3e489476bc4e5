package locks

import (
	"runtime"
	"slices"
	"unsafe"

	"github.com/perfrun/perfrun/harness/callgrind"
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
	// sites, where kept (the counting pass's), are the stacks that
	// first wrote each slot's address.
	sites *[atomicSlots][siteFrames]uintptr
}

type addressCount struct {
	addr uintptr
	n    int64
}

// sitedAddresses is the counting pass's table: it keeps where each address was
// first written.
func sitedAddresses() *addresses {
	return &addresses{sites: new([atomicSlots][siteFrames]uintptr)}
}

func (a *addresses) write(p unsafe.Pointer) { a.add(uintptr(p)) }

// drop forgets the writes to every address not a line's: a spin lock's
// word, whose writes are its lock's own (spins).
func (a *addresses) drop(lock func(addr uintptr) bool) {
	for i := range a.slots {
		if s := &a.slots[i]; s.addr != 0 && lock(s.addr) {
			s.n = 0
		}
	}
}

func (a *addresses) add(addr uintptr) {
	i := a.at(addr)
	switch {
	case i >= 0 && a.slots[i].addr == addr:
		a.slots[i].n++
	case i >= 0 && a.used < atomicSlots*3/4:
		a.slots[i].addr, a.slots[i].n = addr, 1
		a.used++
		if a.sites != nil {
			// Collection is on in the counting pass: the stack is
			// kept outside it, as a lock's first acquisition's is.
			callgrind.ToggleCollect()
			runtime.Callers(2, a.sites[i][:])
			callgrind.ToggleCollect()
		}
	default:
		a.spilled++
	}
}

// at is the slot that holds addr, or the empty one it would take: -1
// where the table has neither.
func (a *addresses) at(addr uintptr) int {
	i := int(uint64(addr>>3) * 0x9E3779B97F4A7C15 >> 51) // 13 bits: atomicSlots
	for range atomicSlots {
		if s := a.slots[i].addr; s == addr || s == 0 {
			return i
		}
		i = (i + 1) % atomicSlots
	}
	return -1
}

// count is how many times addr was added; an address never added counts
// none.
func (a *addresses) count(addr uintptr) int64 {
	if i := a.at(addr); i >= 0 && a.slots[i].addr == addr {
		return a.slots[i].n
	}
	return 0
}

// transfers counts, in the lines pass, the writes to each line that may
// find it taken by another thread: an operation's first write to a line;
// one after a lock was released since its previous write to the line
// (another thread wrote it while this one held the lock); and a lock's
// own write as it acquires (where threads meet: the write just before an
// acquisition), unless the lock is taken shared straight after a plain
// write of this operation to its line (a counter beside a read lock,
// written just before it is taken: the write brought the line, and no
// reader waits on it). Any other write straight after a write to the same
// line, a counter beside its lock, finds the line in the core's cache.
// Its table is keyed by the line's first address.
type transfers struct {
	addresses
	// reads counts an operation's first read of each line (readLines),
	// wrote every write to each line, lock words' included.
	reads, wrote addresses
	// touched are the lines the operation read or wrote since it began
	// or since its last lock event, the latest touchedLines of them.
	touched  [touchedLines]uintptr
	nTouched int
	last     uintptr // the line the operation's last atomic wrote
	crossed  bool    // a lock event since
	pending  uintptr // a write taken for a cached line, unless a lock's acquiring one
	// releasing says a release event came last, so the next write is the
	// lock's giving back; released that the last write was; afterPlain
	// that the write before pending was neither.
	releasing, released, afterPlain bool
}

// touchedLines is how many lines an operation's reads remember it
// touched: a read of a line past them counts again.
const touchedLines = 16

// next begins an operation.
func (v *transfers) next() { v.last, v.pending, v.released, v.nTouched = 0, 0, false, 0 }

// lockEvent notes an acquisition (shared or not) or a release of the lock
// at lock: the write just before an acquisition, if taken for a cached
// line, was the lock's own. An exclusive lock's event writes its word;
// a shared one's writes come as its reader count's atomics. Another
// thread may have written any line while this one waited, so a read after
// the event counts again.
func (v *transfers) lockEvent(acquire, shared bool, lock unsafe.Pointer) {
	if acquire && v.pending != 0 && !(shared && v.afterPlain) {
		v.addresses.add(v.pending)
	}
	v.crossed, v.pending, v.releasing = true, 0, !acquire
	v.nTouched = 0
	if !shared && lock != nil {
		word := uintptr(lock) / lineSize * lineSize
		v.wrote.add(word)
		v.touch(word)
	}
}

// touch remembers that the operation touched line.
func (v *transfers) touch(line uintptr) {
	v.touched[v.nTouched%touchedLines] = line
	v.nTouched++
}

// touches says whether the operation touched line since it began or its
// last lock event, as far as touched remembers.
func (v *transfers) touches(line uintptr) bool {
	return slices.Contains(v.touched[:min(v.nTouched, touchedLines)], line)
}

// read notes a Load of sync/atomic's types at p: the operation's first of
// its line since it began or since its last lock event is a read that may
// find the line written by another thread.
func (v *transfers) read(p unsafe.Pointer) {
	line := uintptr(p) / lineSize * lineSize
	if v.touches(line) {
		return
	}
	v.touch(line)
	v.reads.add(line)
}

func (v *transfers) write(p unsafe.Pointer) {
	line := uintptr(p) / lineSize * lineSize
	v.wrote.add(line)
	if !v.touches(line) {
		v.touch(line)
	}
	release := v.releasing
	v.releasing = false
	if line == v.last && !v.crossed {
		v.pending, v.afterPlain, v.released = line, !v.released, release
		return
	}
	v.last, v.crossed, v.pending, v.released = line, false, 0, release
	v.addresses.add(line)
}

// A LineCount is one cache line's writes over all operations, and those
// of them that may find it taken by another thread (transfers); Site says
// what its most written address is and where it was first written
// (lineSite).
type LineCount struct {
	Writes    int64  `json:"writes"`
	Transfers int64  `json:"transfers"`
	Site      string `json:"site,omitempty"`
}

// lines are the writes counted per cache line with their transfers, most
// written first; a spilled write is a line of its own, and a transfer.
func lines(written *addresses, moved *transfers) []LineCount {
	per := make(map[uintptr]*LineCount)
	at := func(line uintptr) *LineCount {
		if per[line] == nil {
			per[line] = &LineCount{}
		}
		return per[line]
	}
	most := make(map[uintptr]int64) // the writes of each line's most written address
	for i, s := range written.slots {
		if s.addr == 0 {
			continue
		}
		c := at(s.addr / lineSize)
		c.Writes += s.n
		if s.n > most[s.addr/lineSize] && written.sites != nil {
			most[s.addr/lineSize], c.Site = s.n, lineSite(written.sites[i][:])
		}
	}
	for _, s := range moved.slots {
		if s.addr != 0 {
			at(s.addr / lineSize).Transfers += s.n
		}
	}
	out := make([]LineCount, 0, len(per)+int(written.spilled))
	for _, c := range per {
		if c.Writes > 0 {
			out = append(out, LineCount{Writes: c.Writes, Transfers: min(c.Transfers, c.Writes), Site: c.Site})
		}
	}
	for range written.spilled {
		out = append(out, LineCount{Writes: 1, Transfers: 1})
	}
	slices.SortFunc(out, func(x, y LineCount) int { return int(y.Writes - x.Writes) })
	return out
}

// A ReadLine is one cache line that operations both read (sync/atomic's
// Loads) and write: its reads that may find it written by another thread
// (transfers.read) and its writes, lock words' included, over all
// operations.
type ReadLine struct {
	Reads  int64 `json:"reads"`
	Writes int64 `json:"writes"`
}

// readLines are the lines the lines pass saw both read and written.
func readLines(moved *transfers) []ReadLine {
	var out []ReadLine
	for _, r := range moved.reads.slots {
		if r.addr == 0 {
			continue
		}
		if w := moved.wrote.count(r.addr); w > 0 {
			out = append(out, ReadLine{Reads: r.n, Writes: w})
		}
	}
	return out
}

// Reads are an operation's reads of lines that operations write, as one
// thread sees them (ReadLine): per operation, the reads that may find
// their line written by another thread, and how many times an operation
// writes the lines read, each line's writes weighted by its reads. A read
// of a line another thread wrote since this one last touched it brings
// the line, as a write does; the more often the line is written, the more
// often a read finds it so.
type Reads struct{ PerOp, Writes float64 }

// readsOf are the Reads of lines counted over ops operations.
func readsOf(lines []ReadLine, ops int) Reads {
	var r Reads
	for _, l := range lines {
		reads, writes := float64(l.Reads)/float64(ops), float64(l.Writes)/float64(ops)
		r.PerOp += reads
		r.Writes += reads * writes
	}
	if r.PerOp > 0 {
		r.Writes /= r.PerOp
	}
	return r
}

// Lines is how an operation's atomics on lines other threads may write
// spread over the lines, as far as one thread can tell, in transfers (the
// writes that may find the line taken): Hottest are the transfers per
// operation of the line with the most; Others is how many lines of equal
// weight the rest would make (their sum squared over their squares' sum;
// none without a rest); and OtherTransfers are the rest's transfers
// per operation. The atomics whose address the profile does not see
// (sync/atomic's functions, a C library's) are taken as one line, each
// write a transfer.
type Lines struct {
	Hottest, Others, OtherTransfers float64
	// HottestSite and OtherSite say what the hottest line is, and the
	// rest's line with the most transfers, and where each was first
	// written (lineSite); "" where the profile does not see it.
	HottestSite, OtherSite string
}

// spread is Lines of shared atomics per operation, given the writes and
// transfers per line the hook counted over ops operations: what the hook
// saw is scaled to shared where it saw more (a write lock's own
// reader-count writes are among shared's), and what it did not see is one
// line more.
func spread(shared float64, counted []LineCount, ops int) Lines {
	if !(shared > 0) {
		return Lines{}
	}
	type line struct {
		writes, transfers float64
		site              string
	}
	per := make([]line, 0, len(counted)+1)
	seen := 0.0
	for _, c := range counted {
		w := float64(c.Writes) / float64(ops)
		per = append(per, line{w, float64(c.Transfers) / float64(ops), c.Site})
		seen += w
	}
	if seen > shared {
		for i := range per {
			per[i].writes *= shared / seen
			per[i].transfers *= shared / seen
		}
	} else if unseen := shared - seen; unseen > 1e-9 {
		per = append(per, line{unseen, unseen, ""})
	}
	slices.SortStableFunc(per, func(x, y line) int {
		switch {
		case x.transfers > y.transfers:
			return -1
		case x.transfers < y.transfers:
			return 1
		}
		return 0
	})
	l := Lines{Hottest: per[0].transfers, HottestSite: per[0].site}
	if len(per) > 1 {
		l.OtherSite = per[1].site
	}
	var squares float64
	for _, v := range per[1:] {
		l.OtherTransfers += v.transfers
		squares += v.transfers * v.transfers
	}
	if squares > 0 {
		l.Others = l.OtherTransfers * l.OtherTransfers / squares
	}
	return l
}
