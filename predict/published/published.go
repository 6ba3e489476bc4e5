// Package published holds OpenSSL PR 28599's three tables, as printed (the
// file is results/published/pr28599.txt, the evidence, byte for byte: a
// test keeps the two one), so a prediction can stand each design's curve
// beside the published curve of the store it models: the sorted stack
// beside 3.0's table, the hash map beside 4.0's, sort-on-insert beside the
// table its discussion gave.
//
// Its promise: PR28599 reads the tables; StandsFor names which table each
// built-in design stands for; Scaling gives a table's per(n)/per(1).
package published

import (
	_ "embed"
	"strings"

	"github.com/perfrun/perfrun/records"
)

//go:embed pr28599.txt
var pr28599 string

// PR28599 is the tables as a results set: one cell a table and thread
// count, ns/call.
func PR28599() (*records.Set, error) {
	return records.Read(strings.NewReader(pr28599), "pr28599.txt", "")
}

// StandsFor names, for each built-in design, the PR 28599 table of the
// store it models, the store in words, and, where the design's model at
// cost=openssl (the main job's) misses the table, why: what the model
// lacks of the store that table measured.
var StandsFor = map[string]struct{ Impl, Store, Gap string }{
	"sorted": {"pr28599-before", "3.0's sorted stack",
		"cost=openssl does 4.0's work outside the lock on every design, less than 3.0 did outside its own, so more of sorted's call is held than 3.0's was: the model contends as that workload would, not as 3.0 did (cost=real does 3.0's, results/published/predicted)"},
	"hashmap": {"pr28599-after", "4.0's hash table",
		"4.0's store wrote 8.1 atomics a lookup, its reference counts among them, on lines the profile cannot tell apart; the model at cost=openssl writes its reader count's 2 (cost=real keeps 4.0's reference counts, results/published/predicted)"},
	"sortoninsert": {"pr28599-sortoninsert", "the stack sorted on insert",
		"the model's one shared line is its reader count; no real store of the design was run, so what else the published one's lookups wrote is not known (results/published/predicted)"},
}

// Beside is how far a prediction may sit from a table, either way, and
// still meet it: the ±25% the reference constants are fitted within.
const Beside = 1.25

// Scaling is per(n)/per(1) of the table of impl in set: its time per call
// at n threads over its time at one; false where the table has no n.
func Scaling(set *records.Set, impl string, n int) (float64, bool) {
	at := func(threads int) (float64, bool) {
		for _, c := range set.Cells() {
			if c.Impl == impl && c.Threads == threads {
				if v := c.Values[records.Tidy(records.NsPerCall)]; len(v) > 0 {
					return records.Median(v), true
				}
			}
		}
		return 0, false
	}
	one, ok1 := at(1)
	many, ok := at(n)
	if !ok1 || !ok || !(one > 0) {
		return 0, false
	}
	return many / one, true
}
