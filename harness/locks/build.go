package locks

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/internal/gobuild"
	"github.com/perfrun/perfrun/internal/scratch"
)

// Build compiles the main package pkg (an import path, or a folder such
// as ".") in dir into the binary out, built for lock profiles: with the
// build tags tags plus Tag, flags added to go build's, and an overlay of
// the standard sync and sync/atomic (Overlay) whose locks and atomic types
// tell the profile of every acquisition and write. Every lock a call takes
// through sync is seen so: the store's, the standard library's (log's
// writer lock, sync.Once's, sync.Pool's slow path) and a module's. Every
// package above sync compiles once more for it, the standard library
// included; go's cache keeps them for the next build.
func Build(ctx context.Context, dir, pkg, out string, tags []string, flags ...string) error {
	work, err := scratch.Dir("overlay-")
	if err != nil {
		return err
	}
	defer scratch.Remove(work)
	overlay, err := Overlay(ctx, dir, work)
	if err != nil {
		return err
	}
	tags = append(slices.Clip(tags), Tag, olderTag)
	args := append([]string{"build", "-overlay", overlay, "-tags", strings.Join(tags, ","), "-o", out}, flags...)
	if err := gobuild.Run(ctx, dir, append(args, "--", pkg)...); err != nil {
		return fmt.Errorf("building %s for lock profiles: %w", pkg, err)
	}
	return nil
}

// BuildSelf builds this very program for lock profiles into out, from
// its own source (SelfSource), with the build tags this binary was built
// with, and -trimpath where this binary was: either way it finds the
// packages this program's build compiled in go's cache. Without
// -trimpath it builds through a stable folder (stableFolder), where the
// packages it rewrites were compiled by the last build of any copy of
// this module.
func BuildSelf(ctx context.Context, out string) error {
	src, err := SelfSource(ctx)
	if err != nil {
		return err
	}
	flags := []string{NoDWARF}
	dir := src.Dir
	if src.Trimpath {
		flags = append(flags, "-trimpath")
	} else {
		var release func()
		dir, release = stableFolder(ctx, src.Dir)
		defer release()
	}
	if err := Build(ctx, dir, src.Pkg, out, src.Tags, flags...); err != nil {
		return fmt.Errorf("%w (lock profiles rebuild %s from its source in %s)", err, src.Name, src.Dir)
	}
	return nil
}

// Self is the main package this program was built from and the build
// tags it was built with: what a build of it again needs.
func Self() (pkg string, tags []string, err error) {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Path == "" {
		return "", nil, fmt.Errorf("this binary does not say which package it was built from")
	}
	for _, s := range info.Settings {
		if s.Key == "-tags" && s.Value != "" {
			tags = strings.Split(s.Value, ",")
		}
	}
	return info.Path, tags, nil
}

// selfTrimmed says whether this program was built with -trimpath: a build
// of it again with the same setting finds the packages its build compiled
// in go's cache.
func selfTrimmed() bool {
	info, _ := debug.ReadBuildInfo()
	return info != nil && slices.ContainsFunc(info.Settings, func(s debug.BuildSetting) bool {
		return s.Key == "-trimpath" && s.Value == "true"
	})
}

// Binary is where a profiling build of a program named name goes in dir.
func Binary(dir, name string) string { return filepath.Join(dir, name+"-locks") }

// BuildWith builds this program again from b into out, with b's tags and
// tag besides, flags added to go build's, and -trimpath where this program
// was built with it: either way the build finds the packages this
// program's build compiled.
func (b SelfBuild) BuildWith(ctx context.Context, out, tag string, flags ...string) error {
	args := append([]string{"build", "-tags", strings.Join(append(slices.Clone(b.Tags), tag), ","), "-o", out}, flags...)
	if b.Trimpath {
		args = append(args, "-trimpath")
	}
	return gobuild.Run(ctx, b.Dir, append(args, "--", b.Pkg)...)
}

// NoDWARF is the linker flag of a build that only callgrind runs: counts
// need the symbol table's names alone, and without the DWARF the link is
// shorter and valgrind reads less at every start.
const NoDWARF = "-ldflags=-w"
