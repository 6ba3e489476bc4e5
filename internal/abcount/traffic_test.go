package abcount

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/records"
)

// TestTrafficFileRoundTripsAndFailsClosed: what WriteTraffic writes reads
// back the same; a count that cannot be, a row of no arm, or a cell of one
// arm alone refuses the file.
func TestTrafficFileRoundTripsAndFailsClosed(t *testing.T) {
	const cell = "Issuer/impl=rcu/certs=1024/hit=1/threads=1"
	in := Traffic{cell: {{{L1Misses: 13.5, LLMisses: 0.5}}, {{L1Misses: 13.6, LLMisses: 0.6, Syscalls: 0.1}}}}
	data := WriteTraffic([]string{cell}, in)
	names, out, err := ReadTraffic(data)
	if err != nil || len(names) != 1 || out[cell][1][0] != (callgrind.Traffic{L1Misses: 13.6, LLMisses: 0.6, Syscalls: 0.1}) {
		t.Fatalf("read back %v %v %v", names, out, err)
	}
	header := "cell,arm,l1-misses/op,ll-misses/op,syscalls/op\n"
	for what, file := range map[string]string{
		"a negative count":  header + cell + ",base,1,-1,0\n" + cell + ",head,1,1,0\n",
		"an infinite count": header + cell + ",base,1,+Inf,0\n" + cell + ",head,1,1,0\n",
		"a row of no arm":   header + cell + ",base,1,1,0\n" + cell + ",other,1,1,0\n",
		"one arm alone":     header + cell + ",base,1,1,0\n",
		"another file":      "cell,arm,instructions/op\n" + cell + ",base,1\n",
	} {
		if _, _, err := ReadTraffic([]byte(file)); err == nil {
			t.Errorf("%s: read without complaint", what)
		} else if !strings.Contains(err.Error(), "count") && !strings.Contains(err.Error(), "traffic file") {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// TestSyscallsTheHostAddedAreNoChange: system calls that one process of a
// side counted and another did not (a runtime's wait booked to the
// lookup, 0.19 an op in one count of identical code) are no change; a
// call the code makes, in every process of head, is a REGRESSION.
func TestSyscallsTheHostAddedAreNoChange(t *testing.T) {
	const cell = "Issuer/impl=sortoninsert/certs=1024/hit=1/threads=1"
	syscalls := func(tr Traffic) compare.CellVerdict {
		for _, v := range TrafficVerdicts(compare.DefaultThresholds, []string{cell}, tr) {
			if v.Unit == records.Syscalls {
				return v
			}
		}
		t.Fatal("no syscalls/op verdict")
		return compare.CellVerdict{}
	}
	host := Traffic{cell: {{{Syscalls: 0}, {Syscalls: 0}}, {{Syscalls: 0.19}, {Syscalls: 0}}}}
	if v := syscalls(host); v.Verdict != compare.Pass {
		t.Errorf("one head process with the host's calls: %s (%s), want PASS", v.Verdict, v.Reason)
	}
	code := Traffic{cell: {{{Syscalls: 0}, {Syscalls: 0.2}}, {{Syscalls: 0.1}, {Syscalls: 0.1}}}}
	if v := syscalls(code); v.Verdict != compare.Regression {
		t.Errorf("a call on a tenth of head's lookups: %s (%s), want REGRESSION", v.Verdict, v.Reason)
	}
	if sameSyscalls(host[cell]) {
		t.Error("counts 0.19 an op apart read as the same: no second process would be counted")
	}
}
