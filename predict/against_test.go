package predict

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestAgainstComparesScaling: a prediction is held against a published
// table in per(n)/per(1) at the thread counts both have, whatever each
// took at one thread, and a design the table lacks is an error.
func TestAgainstComparesScaling(t *testing.T) {
	read := func(text string) *records.Set {
		s, err := records.Read(strings.NewReader(text), "f.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	pred := read("predicted: yes\n" +
		"BenchmarkIssuer/impl=sorted/cost=real/threads=1 1 100 ns/call 90 low-ns/call 110 high-ns/call\n" +
		"BenchmarkIssuer/impl=sorted/cost=real/threads=2 1 150 ns/call 120 low-ns/call 300 high-ns/call\n" +
		"BenchmarkIssuer/impl=sorted/cost=real/threads=3 1 200 ns/call 150 low-ns/call 500 high-ns/call\n" +
		"BenchmarkIssuer/impl=sorted/cost=real/threads=18 1 2100 ns/call 1000 low-ns/call 5500 high-ns/call\n")
	pub := read("BenchmarkIssuer/impl=pr28599-before/threads=1 1 2000 ns/call\n" +
		"BenchmarkIssuer/impl=pr28599-before/threads=2 1 3000 ns/call\n" +
		"BenchmarkIssuer/impl=pr28599-before/threads=18 1 35000 ns/call\n")
	held, err := Against(pred, pub, map[string]string{"sorted": "pr28599-before"})
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != 2 || held[0].Threads != 2 || held[1].Threads != 18 {
		t.Fatalf("held at %+v: want threads 2 and 18, the counts both have", held)
	}
	h := held[1]
	if !near(h.Predicted, 21) || !near(h.Table, 17.5) || !near(h.Ratio(), 1.2) {
		t.Errorf("at 18: predicted %g, published %g, ratio %g; want 21, 17.5, 1.2", h.Predicted, h.Table, h.Ratio())
	}
	if !(h.Low < h.Predicted && h.Predicted < h.High) || !near(h.Low, 1000.0/90) || !near(h.High, 50) {
		t.Errorf("band at 18 [%g, %g]: want each edge's own scaling, [%g, %g]", h.Low, h.High, 1000.0/90, 50.0)
	}
	if _, err := Against(pred, pub, map[string]string{"hashmap": "pr28599-after"}); err == nil {
		t.Error("a design with no prediction was held against nothing, without an error")
	}
	if _, err := Against(pred, pub, map[string]string{"sorted": "pr28599-after"}); err == nil {
		t.Error("a published design the file lacks was held against nothing, without an error")
	}
}
