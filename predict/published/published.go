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
// store it models, and the store in words.
var StandsFor = map[string]struct{ Impl, Store string }{
	"sorted":       {"pr28599-before", "3.0's sorted stack"},
	"hashmap":      {"pr28599-after", "4.0's hash table"},
	"sortoninsert": {"pr28599-sortoninsert", "the stack sorted on insert"},
}

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
