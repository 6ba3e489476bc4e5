package callgrind

// request is valgrind's client request: args[0] the request, args[1:] its
// arguments; it returns valgrind's answer (0 natively). args stays on the
// caller's stack: an allocation per request would be counted.
//
//go:noescape
func request(args *[6]uint64) uint64

// Requests says whether this build can make client requests.
const Requests = true
