//go:build !amd64

package harness

// brandString is empty where perfrun does not read the processor's own
// name; cpuName then falls back to /proc/cpuinfo, as go test does.
func brandString() string { return "" }
