package sorted_test

import (
	"testing"

	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, sorted.New) }

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, sorted.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, sorted.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, sorted.New) }
