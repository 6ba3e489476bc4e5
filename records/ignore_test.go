package records

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileWithout: cells that differ only in the keys left out become one
// group, their values kept; other keys stay.
func TestReadFileWithout(t *testing.T) {
	text := `BenchmarkIssuer/impl=sorted/certs=1024/hit=0/threads=1 1 100 ns/call
BenchmarkIssuer/impl=pr-before/threads=1 1 2400 ns/call
BenchmarkIssuer/impl=pr-before/mode=x/threads=2 1 3000 ns/call
`
	path := filepath.Join(t.TempDir(), "t.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups(s)) != 3 {
		t.Fatalf("before: groups %v, want three", groups(s))
	}
	w, err := ReadFileWithout(path, "certs", "hit")
	if err != nil {
		t.Fatal(err)
	}
	if g := groups(w); len(g) != 2 || g[0] != "Issuer" || g[1] != "Issuer/mode=x" {
		t.Errorf("after: groups %v, want [Issuer Issuer/mode=x]", g)
	}
	c, ok := w.Cell("Issuer/impl=sorted/threads=1")
	if !ok || len(c.Values["sec/call"]) != 1 || math.Abs(c.Values["sec/call"][0]-100e-9) > 1e-18 {
		t.Errorf("sorted's cell after: %+v", c)
	}
}

func groups(s *Set) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range s.Cells() {
		if !seen[c.Group] {
			seen[c.Group] = true
			out = append(out, c.Group)
		}
	}
	return out
}
