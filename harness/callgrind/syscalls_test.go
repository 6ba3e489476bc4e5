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
	if n := p.syscalls(booked); n != 0 {
		t.Errorf("calls booked to functions that make none: %g kept, want 0", n)
	}
	booked[wrapper], booked["getpid"] = 3, 4
	if n := p.syscalls(booked); n != 7 {
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
	got, err := selfCosts(strings.NewReader(out), "sysCount")
	if err != nil || got["main.lookup"] != 2 || got["syscall.Getpid"] != 1 {
		t.Errorf("selfCosts = %v, %v; want main.lookup 2 (its call's 1 left out), syscall.Getpid 1", got, err)
	}
	if _, err := selfCosts(strings.NewReader("events: Ir\n"), "sysCount"); err == nil {
		t.Error("an output without the event gave no error")
	}
}
