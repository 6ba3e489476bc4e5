//go:build race

package harness_test

// raceEnabled: built with -race.
const raceEnabled = true
