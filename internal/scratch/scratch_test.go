package scratch

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// deadPid is a pid no process has: past the kernel's limit.
const deadPid = 2147483646

// TestPruneTakesWhatADeadProcessLeft: a scratch folder of a process that
// is gone goes; this process's, one kept on purpose, and one with no mark
// stay.
func TestPruneTakesWhatADeadProcessLeft(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	live, err := Dir("count-")
	if err != nil {
		t.Fatal(err)
	}
	dead, _ := Dir("locks-")
	kept, _ := Dir("ab-")
	for _, d := range []string{dead, kept} {
		letGo(d) // a dead process holds no lock
		if err := Mark(d, deadPid, 0); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(kept, KeptFile), nil, 0o644)
	unmarked := filepath.Join(os.TempDir(), Prefix+"other")
	os.Mkdir(unmarked, 0o755)
	removed := Prune()
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{live, kept, unmarked} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed", d)
		}
	}
}

// TestPruneNeverBlocks: a FIFO where a mark (or an older perfrun's pid
// file) would be, planted by anyone in a shared temporary folder, cannot
// stop the prune: it returns at once and leaves the folder.
func TestPruneNeverBlocks(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, name := range []string{markFile, "pid"} {
		d := filepath.Join(os.TempDir(), Prefix+"fifo-"+name)
		os.Mkdir(d, 0o700)
		if err := syscall.Mkfifo(filepath.Join(d, name), 0o600); err != nil {
			t.Skip("no FIFO here:", err)
		}
	}
	done := make(chan []string, 1)
	go func() { done <- Prune() }()
	select {
	case removed := <-done:
		if len(removed) != 0 {
			t.Errorf("removed %v", removed)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the prune blocked on a FIFO")
	}
}

// TestPruneTakesNothingElse: what perfrun never made stays, however it
// poses as perfrun's: a folder whose pid file names a dead process (an
// older perfrun's, or anyone's), a mark naming pid 0 or -1, a link named
// like a scratch folder (and what it points at), a folder whose mark is a
// link, a mark too large to be one.
func TestPruneTakesNothingElse(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	tmp := os.TempDir()
	mk := func(name string) string {
		d := filepath.Join(tmp, Prefix+name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		return d
	}
	pidOnly := mk("pid-only")
	os.WriteFile(filepath.Join(pidOnly, "pid"), []byte("2147483646"), 0o644)
	zero, negative := mk("zero"), mk("negative")
	os.WriteFile(filepath.Join(zero, markFile), []byte(markHead+"\npid 0\nstart 0\n"), 0o600)
	os.WriteFile(filepath.Join(negative, markFile), []byte(markHead+"\npid -1\nstart 0\n"), 0o600)
	target := filepath.Join(tmp, "data")
	os.Mkdir(target, 0o700)
	Mark(target, deadPid, 0)
	link := filepath.Join(tmp, Prefix+"link")
	os.Symlink(target, link)
	linked := mk("marklink")
	os.Symlink(filepath.Join(target, markFile), filepath.Join(linked, markFile))
	large := mk("large")
	os.WriteFile(filepath.Join(large, markFile), append([]byte(markHead+"\npid 2147483646\nstart 0\n"), make([]byte, 2*maxMark)...), 0o600)
	if removed := Prune(); len(removed) != 0 {
		t.Errorf("removed %v: none is perfrun's", removed)
	}
	for _, p := range []string{pidOnly, zero, negative, target, link, linked, large} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
}

// TestAPidTakenAgainIsAbandoned: a mark naming this very process's pid
// with another start time was left by a process whose pid was given
// again: that process is gone.
func TestAPidTakenAgainIsAbandoned(t *testing.T) {
	now := started(os.Getpid())
	if now == 0 {
		t.Skip("no process start time here")
	}
	if abandoned(os.Getpid(), now) || !abandoned(os.Getpid(), now+1) || !abandoned(deadPid, 0) {
		t.Error("want this process alive at its start time, gone at another, and a dead pid gone")
	}
}

// TestALockedMarkIsLive: a folder whose mark names a pid that is another
// process's here — as a live perfrun in its own pid namespace (a
// container's) names its pid 1 — stays while its maker holds the mark
// locked, and goes once the lock is let go.
func TestALockedMarkIsLive(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	d, err := os.MkdirTemp("", Prefix+"ab-")
	if err != nil {
		t.Fatal(err)
	}
	if err := Mark(d, 1, 1); err != nil { // pid 1 of another namespace, started at tick 1
		t.Fatal(err)
	}
	if err := hold(d); err != nil { // another open file, as another process's
		t.Fatal(err)
	}
	if removed := Prune(); len(removed) != 0 {
		t.Fatalf("pruned %v: a live folder of another pid namespace", removed)
	}
	letGo(d)
	if removed := Prune(); len(removed) != 1 || removed[0] != d {
		t.Errorf("pruned %v once the lock was let go, want %s", removed, d)
	}
}

// letGo lets go of this process's lock on d's mark, as its maker's exit
// would, and leaves the folder.
func letGo(d string) {
	if f, ok := holds.LoadAndDelete(d); ok {
		f.(*os.File).Close()
	}
}
