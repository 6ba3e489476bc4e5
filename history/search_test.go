package history

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/perfrun/perfrun/history/changepoint"
)

// TestASearchOfNothingSaysSo: a search of an empty history, or one whose
// filter matches none of its series, is ErrNoSeries (the user's to fix),
// saying which.
func TestASearchOfNothingSaysSo(t *testing.T) {
	ctx := context.Background()
	h, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	opts := changepoint.Options{Alpha: 0.01, Permutations: 199, MinSize: 3}
	if _, err := h.Search(ctx, Filter{}, opts, 0.02); !errors.Is(err, ErrNoSeries) || !regexp.MustCompile("is empty").MatchString(err.Error()) {
		t.Errorf("an empty history: %v, want ErrNoSeries saying it is empty", err)
	}
}
