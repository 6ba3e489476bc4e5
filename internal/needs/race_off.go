//go:build !race

package needs

// raceDetector says the test binary was built with -race.
const raceDetector = false
