// Command shardedmap is perfrun's whole command line with one more store,
// kept in this module: a sharded map (package sharded). Beside perfrun's
// built-in designs:
//
//	go run . run -impl sharded,hashmap,rcu -threads 1,2
//	go run . ab -pkg ./examples/shardedmap -impl sharded HEAD~1 HEAD
package main

import (
	"example.com/shardedmap/sharded"

	"github.com/perfrun/perfrun"
)

func main() {
	perfrun.Main(perfrun.Impl{
		Name:        "sharded",
		Description: "16 shards by name hash, each a map under its own read/write lock",
		New:         sharded.New,
	})
}
