package foreign

import (
	"strings"
	"testing"
)

// TestATimeOfNoCallIsRefusedInWords: a printed time past an hour a call
// is refused saying so, never "want a positive number" of a positive one.
func TestATimeOfNoCallIsRefusedInWords(t *testing.T) {
	c := &Command{Unit: "ns"}
	if _, err := c.Time([]byte("1e308\n")); err == nil || strings.Contains(err.Error(), "positive") || !strings.Contains(err.Error(), "more than an hour") {
		t.Errorf("1e308 ns: %v", err)
	}
	if v, err := c.Time([]byte("took 250 ns\n")); err != nil || v != 250 {
		t.Errorf("250 ns: %v %v", v, err)
	}
}
