package cli

import "time"

// windowWhy says why a window has a least length.
const windowWhy = ": a worker reads the clock once per batch (about 100µs; 5ms for a store behind cgo), so a shorter window measures a batch, not a rate"

// mostWindow is the longest a window or a warm-up may be.
const mostWindow = 10 * time.Minute

// maxRunRounds is the most rounds a run measures, planned or repaired.
const maxRunRounds = 100000

// mostBudget is the longest any budget or time limit may be: a campaign
// or a run past two days is a mistyped unit, not a plan.
const mostBudget = 48 * time.Hour
