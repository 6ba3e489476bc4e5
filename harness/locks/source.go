package locks

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/perfrun/perfrun/internal/selfsource"
)

// A SelfBuild is where a build of this very program comes from: the folder
// and package to build, and the build tags this binary was built with.
type SelfBuild struct {
	// Dir is the folder go build runs in and Pkg the package it builds
	// there; Name is the program's import path, for messages.
	Dir, Pkg, Name string
	Tags           []string
	// Trimpath says this binary was built with -trimpath.
	Trimpath bool
}

// SelfSource is the source a build of this program must come from so
// that what it counts is the code this binary runs: the folder of its
// main package as the binary recorded it (a build without -trimpath
// records its files' paths; go run's does), else the working folder's
// module. It refuses a source that is not the binary's: a recorded
// folder whose git revision differs from the one the binary was stamped
// with, or a working folder that is another checkout than the binary's.
// Where the binary carries no revision, or was built from a modified
// tree, the source is proven by a build of it (Rebuilt), or refused.
// A source once proven is this process's for good: the proof is a build.
func SelfSource(ctx context.Context) (SelfBuild, error) {
	selfProven.Lock()
	defer selfProven.Unlock()
	if b := selfProven.b; b != nil {
		return b.clone(), nil
	}
	b, err := selfSource(ctx)
	if err == nil {
		kept := b.clone()
		selfProven.b = &kept
	}
	return b, err
}

// clone is b with tags of its own, for a caller to change.
func (b SelfBuild) clone() SelfBuild {
	b.Tags = slices.Clone(b.Tags)
	return b
}

// selfProven is the source SelfSource proved, once it has.
var selfProven struct {
	sync.Mutex
	b *SelfBuild
}

func selfSource(ctx context.Context) (SelfBuild, error) {
	pkg, tags, err := Self()
	if err != nil {
		return SelfBuild{}, err
	}
	b := SelfBuild{Name: pkg, Tags: tags, Trimpath: selfTrimmed()}
	if dir := selfsource.MainDir(); dir != "" {
		b.Dir, b.Pkg = dir, "."
	} else if b.Dir, err = os.Getwd(); err != nil {
		return SelfBuild{}, err
	} else {
		b.Pkg = pkg
	}
	proven, err := stamped(b.Dir)
	if err == nil && !proven {
		err = provenSelf(ctx, b)
	}
	return b, err
}

// stamped refuses dir as this binary's source where the binary carries a
// git revision (go build's stamp) and dir's checkout is at another, or is
// modified where the binary was not; proven says the stamp and a clean
// checkout at it settle the question.
func stamped(dir string) (proven bool, err error) {
	rev, modified := selfsource.Stamp()
	if rev == "" {
		return false, nil
	}
	head, dirty, ok := selfsource.Checkout(dir)
	if !ok {
		return false, nil // not a checkout: nothing to hold the stamp against
	}
	if head != rev {
		return false, fmt.Errorf("this perfrun was built at %.12s, the source in %s is at %.12s: a build of it would count other code than the code timed (run the perfrun built from %s, or build one at %.12s)", rev, dir, head, dir, rev)
	}
	if dirty && !modified {
		return false, fmt.Errorf("the source in %s has changed since this perfrun was built from it: a build of it would count other code than the code timed (build perfrun again)", dir)
	}
	return !modified, nil
}
