package sharded_test

import (
	"testing"

	"example.com/shardedmap/sharded"

	"github.com/perfrun/perfrun/store/storetest"
)

// The conformance suite every perfrun implementation passes, -race included.
func TestConformance(t *testing.T) { storetest.Run(t, sharded.New) }

// go test -bench . -cpu 1,2 — the same benchmarks as perfrun's own designs.
func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, sharded.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, sharded.New) }
