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
		if tc.two == "240" && !strings.Contains(out.String(), "240.0 OUTSIDE") {
			t.Errorf("the point outside the band is not named:\n%s", &out)
		}
	}
}
