package locks

import (
	"testing"
	"unsafe"
)

// TestSpreadWeighsLines: the most written line is apart, the rest counted
// as lines of equal weight with their visits; what the hook did not see is
// one line more, each write a visit, and what it saw beyond the shared
// atomics is scaled down to them.
func TestSpreadWeighsLines(t *testing.T) {
	sixteen := make([]LineCount, 16)
	for i := range sixteen {
		sixteen[i] = LineCount{Writes: 12, Visits: 6}
	}
	sixteen[0].Writes = 20
	for _, c := range []struct {
		name    string
		shared  float64
		counted []LineCount
		want    Lines
	}{
		{"one line", 2, []LineCount{{200, 100}}, Lines{Hottest: 2}},
		{"sixteen lines", 2, sixteen, Lines{Hottest: 0.2, Others: 15, OtherVisits: 0.9}},
		{"unseen atomics", 3, []LineCount{{100, 50}}, Lines{Hottest: 2, Others: 1, OtherVisits: 0.5}},
		{"seen beyond shared", 1, []LineCount{{100, 100}, {100, 50}}, Lines{Hottest: 0.5, Others: 1, OtherVisits: 0.25}},
		{"nothing shared", 0, []LineCount{{100, 100}}, Lines{}},
	} {
		got := spread(c.shared, c.counted, 100)
		if !near(got.Hottest, c.want.Hottest) || !near(got.Others, c.want.Others) || !near(got.OtherVisits, c.want.OtherVisits) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestAddressesByLine: writes to one line's addresses are one line, an
// operation's writes to it one visit; an address past the table's room is
// spilled, a line and a visit of its own.
func TestAddressesByLine(t *testing.T) {
	var written addresses
	var visited visits
	buf := make([]int64, 32) // 256 bytes: four lines or five
	base := uintptr(unsafe.Pointer(&buf[0]))
	for range 2 {
		visited.next()
		for i := range buf {
			written.write(unsafe.Pointer(&buf[i]))
			visited.write(unsafe.Pointer(&buf[i]))
		}
	}
	got := lines(&written, &visited)
	want := int((base+uintptr(len(buf))*8-1)/lineSize - base/lineSize + 1)
	if len(got) != want {
		t.Fatalf("32 words at %#x: %d lines %v, want %d", base, len(got), got, want)
	}
	for _, l := range got {
		if l.Visits != 2 {
			t.Errorf("a line two operations wrote: %+v, want 2 visits", l)
		}
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
