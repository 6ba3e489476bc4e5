package predict

import "github.com/perfrun/perfrun/records"

// A lock profile is the model's input, and this table is its one list of
// fields: each unit a profile is written in (beside a run's time as a
// benchfmt unit, in ab's locks.csv), the Cell field it fills, and the
// group it comes in. Every writer and reader of a profile loops over it,
// so a new input is a field of Cell and a row here.

// A ProfileGroup is a set of a profile's units written together: a file
// from before a group has none of it.
type ProfileGroup int

const (
	// GatedUnits: the acquisitions, held instructions and atomics a gate
	// judges (records.LockUnits); every profile has them.
	GatedUnits ProfileGroup = iota
	// BusiestUnits: the busiest exclusive lock (records.BusiestLockUnits).
	BusiestUnits
	// LineUnits: how the atomics spread over lines (records.LineUnits);
	// none: every atomic on one line.
	LineUnits
	// SpreadUnits: how the locks spread, and which spin
	// (records.SpreadUnits); none: the other locks as one, and every
	// waiter sleeps (Cell.Kinds false).
	SpreadUnits
	// ReadUnits: the reads of lines other calls write
	// (records.ReadUnits); none: no such read.
	ReadUnits
	// WriterUnits: the read-write locks taken both ways
	// (records.WriterUnits); none: no such lock.
	WriterUnits
)

// A ProfileUnit is one row of the table.
type ProfileUnit struct {
	Unit  string
	Group ProfileGroup
	// Model: the model cannot predict a cell without it.
	Model bool
	Of    func(*Cell) *float64
}

// ProfileUnits are a lock profile's units in the order they are written.
var ProfileUnits = []ProfileUnit{
	{records.ExclusiveLocks, GatedUnits, true, func(c *Cell) *float64 { return &c.ExclusiveLocks }},
	{records.SharedLocks, GatedUnits, false, func(c *Cell) *float64 { return &c.SharedLocks }},
	{records.LockedInstructions, GatedUnits, true, func(c *Cell) *float64 { return &c.LockedInstructions }},
	{records.SharedLockedInstructions, GatedUnits, false, func(c *Cell) *float64 { return &c.SharedLocked }},
	{records.Atomics, GatedUnits, true, func(c *Cell) *float64 { return &c.Atomics }},
	{records.BusiestLocks, BusiestUnits, false, func(c *Cell) *float64 { return &c.BusiestLocks }},
	{records.BusiestLockedInstructions, BusiestUnits, false, func(c *Cell) *float64 { return &c.BusiestLocked }},
	{records.HottestLineTransfers, LineUnits, false, func(c *Cell) *float64 { return &c.HottestLine }},
	{records.OtherLines, LineUnits, false, func(c *Cell) *float64 { return &c.OtherLines }},
	{records.OtherLineTransfers, LineUnits, false, func(c *Cell) *float64 { return &c.OtherLineTransfers }},
	{records.OtherLocks, SpreadUnits, false, func(c *Cell) *float64 { return &c.OtherLocks }},
	{records.BusiestLockSpins, SpreadUnits, false, func(c *Cell) *float64 { return &c.BusiestSpins }},
	{records.OtherSpinningLocks, SpreadUnits, false, func(c *Cell) *float64 { return &c.OtherSpinning }},
	{records.UnseenLockAtomics, SpreadUnits, false, func(c *Cell) *float64 { return &c.Unseen }},
	{records.WrittenLineReads, ReadUnits, false, func(c *Cell) *float64 { return &c.Reads }},
	{records.ReadLineWrites, ReadUnits, false, func(c *Cell) *float64 { return &c.ReadLineWrites }},
	{records.WriterLocks, WriterUnits, false, func(c *Cell) *float64 { return &c.Writers }},
	{records.WriterLockReads, WriterUnits, false, func(c *Cell) *float64 { return &c.WriterReads }},
}

// ProfileValues are c's profile in the order of ProfileUnits.
func ProfileValues(c Cell) []float64 {
	out := make([]float64, len(ProfileUnits))
	for i, u := range ProfileUnits {
		out[i] = *u.Of(&c)
	}
	return out
}

// SetProfile fills c's profile from the values of units given (given[i]
// says ProfileUnits[i] was): Kinds holds where the spread was given.
func SetProfile(c *Cell, values []float64, given []bool) {
	for i, u := range ProfileUnits {
		*u.Of(c) = values[i]
		if u.Group == SpreadUnits && given[i] {
			c.Kinds = true
		}
	}
}
