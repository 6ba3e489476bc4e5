package hashmap_test

import (
	"testing"

	"github.com/perfrun/perfrun/impls/hashmap"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, hashmap.New) }

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, hashmap.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, hashmap.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, hashmap.New) }
