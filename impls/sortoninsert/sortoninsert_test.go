package sortoninsert_test

import (
	"testing"

	"github.com/perfrun/perfrun/impls/sortoninsert"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, sortoninsert.New) }

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, sortoninsert.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, sortoninsert.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, sortoninsert.New) }
