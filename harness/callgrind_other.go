//go:build !amd64

package harness

// startInstrumentation has no client request here: Instructions runs
// callgrind with instrumentation on from the start.
func startInstrumentation() {}

const clientRequests = false
