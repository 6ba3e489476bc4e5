package baselines

import (
	"errors"
	"os"
	"slices"
	"testing"
)

// TestBuildStandsOnlyForWhatItMeasured: a saved baseline is found by
// name; its build is kept with the digest of the results it measured, and
// results saved again without a build leave that build standing for
// nothing; bad names and missing baselines are the user's to fix.
func TestBuildStandsOnlyForWhatItMeasured(t *testing.T) {
	t.Setenv("PERFRUN_BASELINES", t.TempDir())
	write := func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
	if err := CheckName("../main"); !errors.Is(err, ErrInput) {
		t.Errorf("a name with a path in it: %v, want ErrInput", err)
	}
	if _, err := Path("main"); !errors.Is(err, ErrInput) {
		t.Errorf("no baseline saved: %v, want ErrInput", err)
	}
	first := []byte("BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/op\n")
	if _, err := Save("main", first, write); err != nil {
		t.Fatal(err)
	}
	if got := Names(); !slices.Equal(got, []string{"main"}) {
		t.Errorf("Names() = %v, want [main]", got)
	}
	if _, err := Build("main"); !errors.Is(err, ErrInput) {
		t.Errorf("a baseline saved without its build: %v, want ErrInput", err)
	}
	if _, err := SaveBuild("main", first); err != nil {
		t.Fatal(err)
	}
	if KeptBuild("main") == "" {
		t.Error("the build saved with the results is not found")
	}
	if _, err := Save("main", []byte("BenchmarkIssuer/impl=rcu/threads=1 1 120 ns/op\n"), write); err != nil {
		t.Fatal(err)
	}
	if bin := KeptBuild("main"); bin != "" {
		t.Errorf("results saved again without a build: %s still stands for them", bin)
	}
}
