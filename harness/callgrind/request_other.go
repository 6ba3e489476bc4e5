//go:build !amd64

package callgrind

func request(args *[6]uint64) uint64 { return 0 }

// Requests says whether this build can make client requests.
const Requests = false
