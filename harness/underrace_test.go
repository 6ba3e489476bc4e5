//go:build race

package harness

// underRace: this test binary was built with -race.
const underRace = true
