package callgrind

import "testing"

// TestEventsRead: callgrind's summary read by event name, the zero totals
// it leaves off the end of its line read as zero, and a line of more
// totals than names refused.
func TestEventsRead(t *testing.T) {
	stderr := []byte("==1== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw sysCount sysTime\n" +
		"==1== Collected : 7597119 2391166 1220891 74 269900 9 46 9991 9\n==1== \n")
	ev, err := Events(stderr)
	if err != nil {
		t.Fatal(err)
	}
	if ev["Ir"] != 7597119 || ev["D1mr"] != 269900 || ev["DLmw"] != 9 || ev["sysCount"] != 0 {
		t.Errorf("events %v", ev)
	}
	if _, ok := ev["sysTime"]; !ok {
		t.Error("sysTime, left off the line as zero, is missing")
	}
	if ev, err := Events([]byte("==1== Collected : 123\n")); err != nil || ev["Ir"] != 123 {
		t.Errorf("a plain count: %v, %v", ev, err)
	}
	if _, err := Events([]byte("==1== Events    : Ir\n==1== Collected : 1 2\n")); err == nil {
		t.Error("two totals for one event read without complaint")
	}
	if _, err := Events([]byte("no summary\n")); err == nil {
		t.Error("no summary read without complaint")
	}
}
