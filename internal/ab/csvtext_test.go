package ab

import (
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/perfrun/perfrun/compare"
)

// TestWindowsFileNamesAreText: a cell named like a formula or a workflow
// command (an -exec NAME, a -param value) is written so that no row of
// windows.csv opens with one, and is read back by its own name.
func TestWindowsFileNamesAreText(t *testing.T) {
	names := []string{"@SUM(A1)/threads=1", "-2+3/threads=1", "'quoted/threads=1", "::warning::x/threads=1"}
	windows := map[string][]compare.Window{}
	for _, n := range names {
		for _, arm := range []string{compare.ArmBase, compare.ArmHead, compare.ArmBase2} {
			windows[n] = append(windows[n], compare.Window{Arm: arm, Value: 1e-7, Aside: "=cmd|' /C calc'!A0"})
		}
	}
	data := WriteWindows(names, windows, 2)
	if m := regexp.MustCompile(`(?m)^[=+\-@:]|,[=+\-@]`).Find(data); m != nil {
		t.Errorf("a row opens a cell with %q:\n%s", m, data)
	}
	rec, err := ReadWindows(bytes.NewReader(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rec.Cells {
		got = append(got, c.Name)
	}
	if !slices.Equal(got, names) || rec.Windows[names[0]][0].Aside != "=cmd|' /C calc'!A0" {
		t.Errorf("read back %q (aside %q), want %q", got, rec.Windows[names[0]][0].Aside, names)
	}
}
