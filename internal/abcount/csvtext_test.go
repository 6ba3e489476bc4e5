package abcount

import (
	"regexp"
	"slices"
	"testing"
)

// TestCountFileNamesAreText: instructions.csv names a cell named like a
// formula so that no row opens with it, and reads it back by its name.
func TestCountFileNamesAreText(t *testing.T) {
	names := []string{"=HYPERLINK(2)/threads=1", "+x/threads=1"}
	counts := Counts{names[0]: {{100}, {101}}, names[1]: {{7}, {7}}}
	data := WriteInstructions(names, counts)
	if m := regexp.MustCompile(`(?m)^[=+\-@]`).Find(data); m != nil {
		t.Errorf("a row opens with %q:\n%s", m, data)
	}
	got, back, err := ReadInstructions(data)
	if err != nil || !slices.Equal(got, names) || back[names[0]][1][0] != 101 {
		t.Errorf("read back %q %v (%v), want %q", got, back, err, names)
	}
}
