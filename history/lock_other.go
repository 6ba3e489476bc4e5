//go:build !unix

package history

import "context"

// lockFile is a no-op where flock is not: openers rely on SQLite's own
// locks and busy timeout alone.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	return func() {}, nil
}
