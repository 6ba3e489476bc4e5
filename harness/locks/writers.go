package locks

// Writers are the acquisitions per operation of the read-write locks an
// operation takes both ways: exclusively, a writer, and shared, readers.
// A reader that comes while a writer holds the lock or waits for it
// waits too, and the writer waits for the readers in flight; the model
// weighs that sleep (predict.Cell.Writers).
type Writers struct{ Exclusive, Shared float64 }

// writersOf are the Writers of locks: those each taken both ways, one
// lock at a time. The locks past the most a profile tells apart (Spilled)
// are no one lock, so none of them counts.
func writersOf(locks []LockProfile) Writers {
	var w Writers
	for _, l := range locks {
		if l.Spilled || !(l.Exclusive > 0) || !(l.Shared > 0) {
			continue
		}
		w.Exclusive += l.Exclusive
		w.Shared += l.Shared
	}
	return w
}
