package harness

func valgrindRequest(args *[6]uint64) uint64

// startInstrumentation asks callgrind, when the process runs under it
// with --instr-atstart=no, to start instrumenting: the setup before it
// then runs at valgrind's plain speed instead of callgrind's. Natively it
// does nothing.
func startInstrumentation() {
	const callgrindBase = 'C'<<24 | 'T'<<16
	const startInstrumentationRequest = callgrindBase + 4
	valgrindRequest(&[6]uint64{startInstrumentationRequest})
}

const clientRequests = true
