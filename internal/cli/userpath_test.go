package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAUserPathNeverBreaksALine: a path with a line break, given to any
// command's output flag, comes back quoted wherever a message repeats it
// or its folder, on standard output and standard error alike, where it
// once started a line of its own ("directory new" then "line does not
// exist"). gate's and ab's -json make their folder, so a file stands
// where that folder would be: the message then names it.
func TestAUserPathNeverBreaksALine(t *testing.T) {
	base := "../../docs/testdata/baseline.txt"
	for _, args := range [][]string{
		{"gate", base, base, "-json", "ODD.json"},
		{"plot", "-o", "ODD", base},
		{"report", "-o", "ODD", base},
		{"ab", "-replay", "../../docs/testdata/c-hashmap/windows.csv", "-json=ODD.json"},
		{"run", "-impl", "rcu", "-threads", "1", "-rounds", "1", "-window", "1ms", "-q", "-o", "ODD.txt"},
	} {
		odd := filepath.Join(t.TempDir(), "two\nlines", "out") // each command a folder of its own, not there yet
		if args[0] == "gate" || args[0] == "ab" {
			if err := os.WriteFile(filepath.Dir(odd), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "ODD", odd)
		}
		var stdout, stderr bytes.Buffer
		run(&stdout, &stderr, args)
		all := stdout.String() + stderr.String()
		if strings.Contains(all, "two\nlines") || !strings.Contains(all, `two\nlines`) {
			t.Errorf("perfrun %q: the path is not quoted where it is said:\n%s", args, all)
		}
	}
}
