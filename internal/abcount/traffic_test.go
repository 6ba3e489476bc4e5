package abcount

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness/callgrind"
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
