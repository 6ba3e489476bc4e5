package rcu_test

import (
	"testing"

	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) { storetest.Run(t, rcu.New) }

func BenchmarkIssuer(b *testing.B) { storetest.BenchmarkIssuer(b, rcu.New) }

func BenchmarkAdd(b *testing.B) { storetest.BenchmarkAdd(b, rcu.New) }

func FuzzOps(f *testing.F) { storetest.Fuzz(f, rcu.New) }
