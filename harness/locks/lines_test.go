package locks

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestSpreadWeighsLines: the line with the most transfers is apart, the
// rest counted as lines of equal weight; what the hook did not see is one
// line more, each write a transfer, and what it saw beyond the shared
// atomics is scaled down to them.
func TestSpreadWeighsLines(t *testing.T) {
	sixteen := make([]LineCount, 16)
	for i := range sixteen {
		sixteen[i] = LineCount{Writes: 12, Transfers: 6}
	}
	sixteen[0] = LineCount{Writes: 20, Transfers: 20}
	for _, c := range []struct {
		name    string
		shared  float64
		counted []LineCount
		want    Lines
	}{
		{"one line", 2, []LineCount{{Writes: 200, Transfers: 100}}, Lines{Hottest: 1}},
		{"sixteen lines", 2, sixteen, Lines{Hottest: 0.2, Others: 15, OtherTransfers: 0.9}},
		{"unseen atomics", 3, []LineCount{{Writes: 100, Transfers: 50}}, Lines{Hottest: 2, Others: 1, OtherTransfers: 0.5}},
		{"seen beyond shared", 1, []LineCount{{Writes: 100, Transfers: 100}, {Writes: 100, Transfers: 50}}, Lines{Hottest: 0.5, Others: 1, OtherTransfers: 0.25}},
		{"nothing shared", 0, []LineCount{{Writes: 100, Transfers: 100}}, Lines{}},
	} {
		got := spread(c.shared, c.counted, 100)
		if !near(got.Hottest, c.want.Hottest) || !near(got.Others, c.want.Others) || !near(got.OtherTransfers, c.want.OtherTransfers) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestAddressesByLine: writes to one line's addresses are one line, an
// operation's writes to it one after another one transfer, and one more
// after a lock event; an address past the table's room is spilled, a line
// and a transfer of its own.
func TestAddressesByLine(t *testing.T) {
	var written addresses
	var moved transfers
	// 256 bytes on four whole lines: where a line held fewer words than
	// it is written again, its transfers would be capped at its writes.
	raw := make([]int64, 40)
	skip := (lineSize - int(uintptr(unsafe.Pointer(&raw[0]))%lineSize)) % lineSize / 8
	buf := raw[skip : skip+32]
	base := uintptr(unsafe.Pointer(&buf[0]))
	for range 2 {
		moved.next()
		for i := range buf {
			written.write(unsafe.Pointer(&buf[i]))
			moved.write(unsafe.Pointer(&buf[i]))
		}
		moved.lockEvent(false, false, nil)
		moved.write(unsafe.Pointer(&buf[len(buf)-1]))
	}
	got := lines(&written, &moved)
	want := int((base+uintptr(len(buf))*8-1)/lineSize - base/lineSize + 1)
	if len(got) != want {
		t.Fatalf("32 words at %#x: %d lines %v, want %d", base, len(got), got, want)
	}
	// Each operation: one transfer a line, and the last line once more
	// after the lock event.
	last := (base + uintptr(len(buf))*8 - 1) / lineSize
	var total int64
	for _, l := range got {
		total += l.Transfers
	}
	if want := int64(2*want + 2); total != want {
		t.Errorf("lines %v (the last, %#x, written again after a lock event): %d transfers, want %d", got, last*lineSize, total, want)
	}
	var b addresses
	many := make([]int64, atomicSlots)
	for i := range many {
		b.write(unsafe.Pointer(&many[i]))
	}
	if b.spilled == 0 || b.used > atomicSlots*3/4 {
		t.Errorf("%d addresses: %d used, %d spilled; want the table three quarters full and the rest spilled", len(many), b.used, b.spilled)
	}
}

// TestReadsOfWrittenLines: a Load counts where it is an operation's first
// touch of its line since the operation began or its last lock event, and
// only on a line operations write (an exclusive lock's word included); a
// line read and never written is no read of a written line.
func TestReadsOfWrittenLines(t *testing.T) {
	var moved transfers
	raw := make([]int64, 40)
	skip := (lineSize - int(uintptr(unsafe.Pointer(&raw[0]))%lineSize)) % lineSize / 8
	buf := raw[skip : skip+32] // four whole lines: a, the lock's, one only read, and one more
	a, lock, unwritten := unsafe.Pointer(&buf[0]), unsafe.Pointer(&buf[8]), unsafe.Pointer(&buf[16])
	for op := range 4 {
		moved.next()
		moved.read(a)
		moved.read(unsafe.Pointer(&buf[1])) // the same line: no read more
		moved.read(unwritten)
		if op == 0 {
			moved.write(a)
		}
		moved.lockEvent(true, false, lock)
		moved.read(lock) // the word this operation just wrote: no read
		moved.read(a)    // again after the lock event
		moved.lockEvent(false, false, lock)
	}
	got := readLines(&moved)
	slices.SortFunc(got, func(x, y ReadLine) int { return int(x.Reads - y.Reads) })
	if want := []ReadLine{{Reads: 8, Writes: 1}}; !slices.Equal(got, want) {
		t.Fatalf("lines read and written: %+v, want %+v (a's two reads an operation; the lock's line written, never read first; the other line never written)", got, want)
	}
	if r := readsOf(got, 4); !near(r.PerOp, 2) || !near(r.Writes, 0.25) {
		t.Errorf("reads %+v, want 2 an operation of a line written 0.25 times an operation", r)
	}
}

// TestRewriteAtomicsOfThisGo: sync/atomic's types of the Go that runs the
// tests tell the hook every write, and every Load the read hook
// (TestRewriteRefusesAnotherShape: one shaped otherwise is refused).
func TestRewriteAtomicsOfThisGo(t *testing.T) {
	out, err := rewriteAtomics(filepath.Join(runtime.GOROOT(), "src", "sync", "atomic", "type.go"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "perfrunAtomic(unsafe.Pointer(&x.v))"); n != writerMethods() {
		t.Errorf("%d writing methods tell the hook, want %d", n, writerMethods())
	}
	if n := strings.Count(string(out), "perfrunAtomicRead(unsafe.Pointer(&x.v))"); n != len(writers) {
		t.Errorf("%d Loads tell the read hook, want %d", n, len(writers))
	}
}
