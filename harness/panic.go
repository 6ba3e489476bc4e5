package harness

import (
	"fmt"
	"runtime/debug"

	"github.com/perfrun/perfrun/workloads"
)

// A PanicError is a panic in a store's or a workload's code, caught in
// the worker goroutine that ran it. An unrecovered panic there would end
// the process with Go's exit code 2, which perfrun's callers read as bad
// flags; caught, it is the window's error and the tool's failure.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("panic in the measured code: %v\n%s", e.Value, e.Stack)
}

// guard makes op return a PanicError instead of panicking. The deferred
// recover costs a few nanoseconds a batch, not a call.
func guard(op workloads.Op) workloads.Op {
	return func(n int) (err error) {
		defer recoverInto(&err)
		return op(n)
	}
}

// guardPaced is guard for a paced worker's operation.
func guardPaced(op func() error) func() error {
	return func() (err error) {
		defer recoverInto(&err)
		return op()
	}
}

func recoverInto(err *error) {
	if p := recover(); p != nil {
		*err = &PanicError{Value: p, Stack: debug.Stack()}
	}
}
