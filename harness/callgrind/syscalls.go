package callgrind

import (
	"bytes"
	"debug/elf"
	"fmt"
	"slices"
	"strings"
)

// Callgrind books a system call where the thread it is following is, and
// it learns of a switch of threads only when the new thread runs its
// first instruction: a system call of another thread that returns before
// then — the Go runtime's sysmon waking, as often as the machine's load
// makes it — is booked to whatever function the counted thread was in (a
// lookup's loop, a binary search). Those were a tenth of a call an
// operation in one count of identical code, and none in the next. And the
// counted thread's own runtime makes calls of the host's timing: a wait
// on a futex when it was descheduled, another 0.21 an operation in one
// count. A system call the counted code makes is booked to the function
// whose syscall instruction made it. So a count keeps the system calls
// booked to a function of the program outside package runtime that holds
// a syscall instruction (syscall's, x/sys/unix's), or to code outside the
// program (a C library's), and sets the rest aside: what the runtime does
// for its scheduler and its heap is not counted. The calls the runtime
// makes because the code asked it to wait — a sleep, a channel, a
// semaphore — are the code's: the whole cost of each call from outside
// the runtime into one of those waits (blocking) is kept. What is still
// left out: the runtime's calls the code causes without waiting (a heap
// that grows, a collection it starts), which other counts see.

// program is what the count needs to know of the counted binary's
// functions: every one by name, and those whose code holds a syscall
// instruction (0F 05).
type program struct {
	funcs, syscallers map[string]bool
}

// readProgram reads the function symbols of the ELF program at path.
func readProgram(path string) (*program, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := &program{funcs: make(map[string]bool), syscallers: make(map[string]bool)}
	text := f.Section(".text")
	var code []byte
	if text != nil {
		if code, err = text.Data(); err != nil {
			return nil, err
		}
	}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC {
			continue
		}
		p.funcs[s.Name] = true
		if text == nil || s.Value < text.Addr || s.Value+s.Size > text.Addr+uint64(len(code)) {
			continue
		}
		if bytes.Contains(code[s.Value-text.Addr:s.Value-text.Addr+s.Size], []byte{0x0f, 0x05}) {
			p.syscallers[s.Name] = true
		}
	}
	return p, nil
}

// blocking are the runtime's entry points where a goroutine waits because
// its code asked to: a call into one from outside the runtime is the
// code's, system calls and all.
var blocking = []string{
	"time.Sleep", "runtime.Gosched", "runtime.block",
	"runtime.chanrecv1", "runtime.chanrecv2", "runtime.chansend1", "runtime.selectgo",
	"sync.runtime_Semacquire", "sync.runtime_SemacquireMutex", "sync.runtime_SemacquireRWMutex",
	"sync.runtime_SemacquireRWMutexR", "sync.runtime_SemacquireWaitGroup", "internal/sync.runtime_SemacquireMutex",
}

// waits says whether a call from caller into callee is the code asking
// the runtime to wait.
func waits(caller, callee string) bool {
	return !runtimeFunc(caller) && slices.Contains(blocking, callee)
}

// runtimeFunc says fn is the runtime's own.
func runtimeFunc(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/runtime/") && !strings.HasPrefix(fn, "internal/runtime/syscall/")
}

// syscalls sums the system calls booked to each function (SelfCosts of
// sysCount) that the counted code can have made: those of a function
// with a syscall instruction outside package runtime, and those of code
// outside the program; waited are those of the code's waits (costs'
// calls into blocking), added.
func (p *program) syscalls(booked map[string]float64, waited float64) float64 {
	n := waited
	for fn, v := range booked {
		if p.syscallers[fn] && !strings.HasPrefix(fn, "runtime.") || !p.funcs[fn] {
			n += v
		}
	}
	return n
}
