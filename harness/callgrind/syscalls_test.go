package callgrind

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOtherThreadsCallsAreSetAside: system calls booked to functions that
// make none (as callgrind booked sysmon's wakes to a lookup's loop and a
// binary search in a count of identical code), or to the runtime's own
// (a futex wait of a descheduled thread), are not kept; those booked to
// a function with a syscall instruction, or to code outside the program,
// are.
func TestOtherThreadsCallsAreSetAside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	// A test binary has no symbol table: a program of its own, built.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"syscall\"\n)\n\nfunc main() { fmt.Println(syscall.Getpid(), strings.Index(\"ab\", \"b\")) }\n"), 0o644)
	exe := filepath.Join(dir, "m")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p, err := readProgram(exe)
	if err != nil {
		t.Fatal(err)
	}
	const wrapper = "internal/runtime/syscall/linux.Syscall6"
	if !p.syscallers[wrapper] || !p.syscallers["runtime.futex.abi0"] {
		t.Fatalf("%s and runtime.futex.abi0 hold no syscall instruction; found %v", wrapper, p.syscallers)
	}
	for _, fn := range []string{"main.main", "runtime.memmove"} {
		if !p.funcs[fn] || p.syscallers[fn] {
			t.Fatalf("%s: a function of the program %v, making system calls %v; want true, false", fn, p.funcs[fn], p.syscallers[fn])
		}
	}
	booked := map[string]float64{"main.main": 5, "runtime.memmove": 1, "runtime.futex.abi0": 7}
	if n := p.syscalls(booked, 0); n != 0 {
		t.Errorf("calls booked to functions that make none: %g kept, want 0", n)
	}
	booked[wrapper], booked["getpid"] = 3, 4
	if n := p.syscalls(booked, 0); n != 7 {
		t.Errorf("%g kept, want 7: 3 of the wrapper's and 4 of a C library's", n)
	}
}

func TestSelfCostsLeaveCallsOut(t *testing.T) {
	out := `version: 1
positions: line
events: Ir sysCount
fl=a.go
fn=main.lookup
10 100 2
+1 50
cfn=syscall.Getpid
calls=1 0
12 30 1
fn=syscall.Getpid
3 30 1
`
	got, err := SelfCosts(strings.NewReader(out), "sysCount")
	if err != nil || got["main.lookup"] != 2 || got["syscall.Getpid"] != 1 {
		t.Errorf("SelfCosts = %v, %v; want main.lookup 2 (its call's 1 left out), syscall.Getpid 1", got, err)
	}
	if _, err := SelfCosts(strings.NewReader("events: Ir\n"), "sysCount"); err == nil {
		t.Error("an output without the event gave no error")
	}
}

// TestTheCodesWaitsAreItsCalls: a lookup that sleeps makes its system
// calls through the runtime (a futex wait booked to runtime.futex, which
// the count otherwise sets aside); the whole cost of the code's call into
// time.Sleep is kept, while the runtime's own call into a wait is not,
// nor is a call the code makes that does not wait.
func TestTheCodesWaitsAreItsCalls(t *testing.T) {
	out := `version: 1
positions: line
events: Ir sysCount
fn=main.lookup
10 100
cfn=time.Sleep
calls=10 0
12 3000 10
cfn=runtime.mallocgc
calls=1 0
13 300 2
fn=runtime.findRunnable
20 50
cfn=runtime.chanrecv1
calls=1 0
21 40 4
fn=runtime.futex.abi0
3 30 16
`
	self, waited, err := costs(strings.NewReader(out), "sysCount", waits)
	if err != nil || waited != 10 || self["runtime.futex.abi0"] != 16 || self["main.lookup"] != 0 {
		t.Errorf("costs = %v, %g, %v; want 10 waited (the code's sleep alone), futex's 16 booked to it", self, waited, err)
	}
	p := &program{funcs: map[string]bool{"main.lookup": true, "runtime.futex.abi0": true}, syscallers: map[string]bool{"runtime.futex.abi0": true}}
	if n := p.syscalls(self, waited); n != 10 {
		t.Errorf("%g kept, want the sleep's 10", n)
	}
}
