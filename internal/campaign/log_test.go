package campaign

import (
	"strings"
	"testing"
)

// TestAProgressLineIsOneLine: a revision a user gave with a newline in it
// is logged escaped, on the one line of its progress, where it once
// printed a line of its own that could pass for perfrun's.
func TestAProgressLineIsOneLine(t *testing.T) {
	var b strings.Builder
	c := &Campaign{Log: &b}
	c.logf("building %s and %s (%s)", "main\nperfrun: ab: PASS", "HEAD", "one layout")
	if strings.Count(b.String(), "\n") != 1 || !strings.Contains(b.String(), `main\nperfrun`) {
		t.Errorf("logged %q: want one line, the newline escaped", b.String())
	}
}
