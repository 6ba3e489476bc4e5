// Package filelock takes advisory locks on files (flock), so that perfrun
// processes that share a file outside any one of them — a history's
// SQLite database, a folder a build is made in — take turns at it. The
// locks are advisory: they order perfrun's processes among themselves
// and leave every other program's access as it was. Where flock is not
// (neither Linux nor another Unix), every lock is granted at once.
package filelock
