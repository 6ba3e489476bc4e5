package lines_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// linesAt16 is the time per call at 16 threads the fixed constants
// (counts alone, no measured time) predict for the cell of impl in a
// profile file of results/lines/profiles.
func linesAt16(t *testing.T, file, impl string, edits ...func(*predict.Cell)) float64 {
	t.Helper()
	in, err := records.ReadFile("profiles/" + file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range in.Cells() {
		if c.Threads != 1 || !strings.Contains(c.Name, "impl="+impl+"/") {
			continue
		}
		cell, _ := predict.CellOf(c) // the counts; a time set aside is not needed
		for _, e := range edits {
			e(&cell)
		}
		if err := predict.Check(cell); err != nil {
			t.Fatal(err)
		}
		band, err := predict.Predict(cell, predict.Fixed.Low, predict.Fixed.Mid, predict.Fixed.High, []int{16})
		if err != nil {
			t.Fatal(err)
		}
		return band.Mid[0]
	}
	t.Fatalf("%s has no 1-thread cell of %s", file, impl)
	return math.NaN()
}

// TestAShardedStoreScales: the shardedmap example's store (16 shards, a
// read lock each), profiled by results/lines/run.sh, predicted at 16
// threads from its counts: at most half the hash map's time per call (one
// read lock, its reader count one line); a lookup counter per shard, on
// the shard's line, within 5% of none; one counter of the whole store
// slower than that.
func TestAShardedStoreScales(t *testing.T) {
	sharded := linesAt16(t, "sharded.txt", "sharded")
	hashmap := linesAt16(t, "sharded.txt", "hashmap")
	perShard := linesAt16(t, "shard-counter.txt", "sharded")
	global := linesAt16(t, "global-counter.txt", "sharded")
	t.Logf("16 threads: sharded %.0f ns, hashmap %.0f ns; a counter per shard %.0f ns, one for the store %.0f ns",
		1e9*sharded, 1e9*hashmap, 1e9*perShard, 1e9*global)
	if sharded > hashmap/2 {
		t.Errorf("sharded %.0f ns a call at 16 threads, hashmap %.0f: want at most half", 1e9*sharded, 1e9*hashmap)
	}
	if r := perShard / sharded; r > 1.05 || r < 0.95 {
		t.Errorf("a counter per shard: %.3f× the store without, want within 5%%", r)
	}
	if global < perShard*1.05 {
		t.Errorf("one counter of the store %.0f ns, one per shard %.0f: want it slower", 1e9*global, 1e9*perShard)
	}
	// Without the lines (a profile from before them) the shards' reader
	// counts are one line, and the store is no faster than the hash map.
	if one := linesAt16(t, "sharded.txt", "sharded", withoutLines); one < hashmap/2 {
		t.Errorf("sharded with every atomic on one line: %.0f ns, want no less than half hashmap's %.0f", 1e9*one, 1e9*hashmap)
	}
}

// withoutLines forgets a cell's lines.
func withoutLines(c *predict.Cell) { c.HottestLine, c.OtherLines, c.OtherLineTransfers = 0, 0, 0 }
