package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// TestPredictionSaysWhereTheMeasurementSits: each thread count the input
// measured is held against the band, and one outside is named OUTSIDE.
func TestPredictionSaysWhereTheMeasurementSits(t *testing.T) {
	read := func(text string) *records.Set {
		s, err := records.Read(strings.NewReader(text), "f.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	band := read("predicted: yes\n" +
		"BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call 100 low-ns/call 100 high-ns/call\n" +
		"BenchmarkIssuer/impl=sorted/threads=2 1 170 ns/call 150 low-ns/call 200 high-ns/call\n" +
		"BenchmarkIssuer/impl=sorted/threads=4 1 300 ns/call 250 low-ns/call 380 high-ns/call\n")
	for _, tc := range []struct {
		two  string
		want string
	}{{"180", "inside the predicted band: 2 of 2"}, {"240", "inside the predicted band: 1 of 2"}} {
		in := read("BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call\nBenchmarkIssuer/impl=sorted/threads=2 1 " + tc.two + " ns/call\n")
		var out bytes.Buffer
		printPrediction(&streams{&out, &out}, band, in, predict.Measured{})
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("measured %s ns at 2 threads: want %q in\n%s", tc.two, tc.want, &out)
		}
		if tc.two == "240" && !strings.Contains(out.String(), "240.0 [240.0, 240.0] OUTSIDE") {
			t.Errorf("the point outside the band is not named:\n%s", &out)
		}
	}
}

// TestPredictionJudgesTheInterval: a band of one value (nothing shared)
// holds a measurement whose rounds jitter around it; rounds all well off it
// do not.
func TestPredictionJudgesTheInterval(t *testing.T) {
	band, err := records.Read(strings.NewReader("predicted: yes\n"+
		"BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"+
		"BenchmarkIssuer/impl=rcu/threads=2 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"), "p.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rounds []string
		want   string
	}{
		{[]string{"97", "99", "101", "98", "102", "100", "99"}, "2 of 2"},
		{[]string{"90", "91", "89", "92", "90", "91", "90"}, "1 of 2"},
	} {
		text := "BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call\n"
		for _, r := range tc.rounds {
			text += "BenchmarkIssuer/impl=rcu/threads=2 1 " + r + " ns/call\n"
		}
		in, err := records.Read(strings.NewReader(text), "r.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		printPrediction(&streams{&out, &out}, band, in, predict.Measured{})
		if !strings.Contains(out.String(), "inside the predicted band: "+tc.want) {
			t.Errorf("rounds %v: want %s inside:\n%s", tc.rounds, tc.want, &out)
		}
	}
}
