package workloads

import (
	"slices"
	"testing"

	"github.com/perfrun/perfrun/store"
)

// TestDuplicatesInOrder: order=after adds the copies after every object,
// in the objects' order and cycling for more than one pass (a bundle, then
// a subset of it; a directory added ten times over); spread places each
// copy after its original.
func TestDuplicatesInOrder(t *testing.T) {
	objs := make([]*store.Object, 10)
	for i := range objs {
		objs[i] = &store.Object{Subject: store.Name(rune('a' + i))}
	}
	if got := withDuplicates(objs, 0.3, true, 1); !slices.Equal(got, append(slices.Clone(objs), objs[:3]...)) {
		t.Errorf("after, 0.3: %d objects, want the 10 then the first 3", len(got))
	}
	want := slices.Concat(objs, objs, objs)
	if got := withDuplicates(objs, 2, true, 1); !slices.Equal(got, want) {
		t.Errorf("after, 2: %d objects, want the 10 three times over", len(got))
	}
	spread := withDuplicates(objs, 2, false, 1)
	if len(spread) != 30 {
		t.Fatalf("spread, 2: %d objects, want 30", len(spread))
	}
	for i, o := range objs {
		if !slices.Contains(spread, o) {
			t.Errorf("spread: object %d lost", i)
		}
	}
	if slices.Equal(spread, want) {
		t.Error("spread placed the copies as after does")
	}
}
