package locks

import "testing"

// TestWritersAreLocksTakenBothWays: only a lock taken both exclusively and
// shared counts, each way; a mutex, a read lock taken shared alone, and
// the locks past the most a profile tells apart do not.
func TestWritersAreLocksTakenBothWays(t *testing.T) {
	got := writersOf([]LockProfile{
		{Kind: "sync.RWMutex", Exclusive: 0.0156, Shared: 1.26},
		{Kind: "sync.Mutex", Exclusive: 1},
		{Kind: "sync.RWMutex", Shared: 2},
		{Kind: "sync.RWMutex", Exclusive: 3, Shared: 3, Spilled: true},
	})
	if want := (Writers{Exclusive: 0.0156, Shared: 1.26}); got != want {
		t.Errorf("writers %+v, want %+v", got, want)
	}
}
