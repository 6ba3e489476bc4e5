package locks

import "github.com/perfrun/perfrun/predict"

// Cell is what the model reads of p (predict.ProfileUnits): a cell named
// name of instructions per operation.
func (p Profile) Cell(name string, instructions float64) predict.Cell {
	acq, held := p.Busiest()
	return predict.Cell{Name: name, Instructions: instructions,
		ExclusiveLocks: p.ExclusiveLocks, SharedLocks: p.SharedLocks,
		LockedInstructions: p.LockedInstructions, SharedLocked: p.SharedLockedInstructions, Atomics: p.Atomics,
		BusiestLocks: acq, BusiestLocked: held, BusiestSite: p.BusiestSite(),
		HottestLine: p.Lines.Hottest, OtherLines: p.Lines.Others, OtherLineTransfers: p.Lines.OtherTransfers,
		HottestSite: p.Lines.HottestSite, OtherLineSite: p.Lines.OtherSite,
		OtherLocks: p.OtherLocks(), BusiestSpins: p.BusiestSpinning(), OtherSpinning: p.OtherSpinning(),
		Unseen: p.UnseenAtomics(), Kinds: p.Kinds, Reads: p.Reads.PerOp, ReadLineWrites: p.Reads.Writes,
		Writers: p.Writers.Exclusive, WriterReads: p.Writers.Shared}
}

// RecordedKind names the one lock a recorded profile describes: a file
// keeps its busiest lock's counts, not its kind.
const RecordedKind = "busiest"

// recordedUnseen names a recorded profile's blind spot: a file keeps its
// atomics, not its kind.
const recordedUnseen = "locks the profile cannot see (the runtime's, internal/sync's, a C library's)"

// FromCell is the profile a recorded cell describes (the inverse of Cell,
// as far as a file keeps it): its busiest lock, the rest as OtherLocks
// locks of equal weight, its lines, and its blind spot.
func FromCell(c predict.Cell) Profile {
	p := Profile{ExclusiveLocks: c.ExclusiveLocks, SharedLocks: c.SharedLocks, LockedInstructions: c.LockedInstructions,
		SharedLockedInstructions: c.SharedLocked, Atomics: c.Atomics, Kinds: c.Kinds}
	p.Locks = recordedLocks(p, c)
	p.Lines = Lines{Hottest: c.HottestLine, Others: c.OtherLines, OtherTransfers: c.OtherLineTransfers}
	p.Reads = Reads{PerOp: c.Reads, Writes: c.ReadLineWrites}
	p.Writers = Writers{Exclusive: c.Writers, Shared: c.WriterReads}
	if c.Unseen > 0 {
		p.Unseen = []Unseen{{What: recordedUnseen, Atomics: c.Unseen}}
	}
	return p
}

// recordedLocks are the locks a recorded cell c of profile p describes:
// its busiest and the rest as OtherLocks locks of equal weight, holding
// what the busiest does not; BusiestSpins says whether the busiest's
// waiters spin first, OtherSpinning how many of the rest's acquisitions
// are of locks whose waiters do, the rest's locks shared between the two
// as their acquisitions are.
func recordedLocks(p Profile, c predict.Cell) []LockProfile {
	if !(c.BusiestLocks > 0) {
		return nil
	}
	out := []LockProfile{{Kind: RecordedKind, Exclusive: c.BusiestLocks, HeldExclusive: c.BusiestLocked, Spin: c.BusiestSpins == 1}}
	rest, others := p.ExclusiveLocks-c.BusiestLocks, c.OtherLocks
	if !(rest > 0) || !(others > 0) {
		return out
	}
	restHeld := max(0, p.LockedInstructions-c.BusiestLocked)
	spin := min(c.OtherSpinning, rest)
	for _, part := range []struct {
		acq  float64
		spin bool
	}{{spin, true}, {rest - spin, false}} {
		if part.acq > 0 {
			share := part.acq / rest
			out = append(out, LockProfile{Kind: RecordedKind, Exclusive: part.acq, HeldExclusive: restHeld * share, Count: others * share, Spin: part.spin})
		}
	}
	return out
}
