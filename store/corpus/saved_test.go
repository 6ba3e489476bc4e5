package corpus

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSavedCorpus: a corpus kept in a folder reads back as the one
// generated — the same objects in the same order, the same expected
// issuers — and a damaged file is generated again, not trusted.
func TestSavedCorpus(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Seed: 77, CAs: 40, Hits: 30, Misses: 8}
	made, err := CachedIn(context.Background(), dir, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.gob"))
	if len(files) != 1 {
		t.Fatalf("%d files kept, want 1", len(files))
	}
	read, err := load(files[0], spec)
	if err != nil {
		t.Fatal(err)
	}
	if read.Digest != made.Digest || len(read.Hits) != len(made.Hits) || len(read.Misses) != len(made.Misses) || len(read.CRLs) != len(made.CRLs) {
		t.Fatalf("read back %s (%d hits, %d misses), made %s (%d, %d)", read.Digest, len(read.Hits), len(read.Misses), made.Digest, len(made.Hits), len(made.Misses))
	}
	for i, l := range made.Hits {
		if !bytes.Equal(read.Hits[i].Issuer.DER, l.Issuer.DER) {
			t.Fatalf("hit %d expects another issuer when read back", i)
		}
	}
	if _, err := load(files[0], Spec{Seed: 78, CAs: 40, Hits: 30, Misses: 8}); err == nil {
		t.Error("a file of another spec was read as this one")
	}
	data, _ := os.ReadFile(files[0])
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(files[0], spec); err == nil {
		t.Error("a damaged file was read back")
	}
	cache.Lock()
	delete(cache.m, spec)
	cache.Unlock()
	again, err := CachedIn(context.Background(), dir, spec, nil)
	if err != nil || again.Digest != made.Digest {
		t.Errorf("after damage: %v, digest %s, want %s generated again", err, again.Digest, made.Digest)
	}
}

// TestForgedCacheRegenerated: a cache file that holds fewer CAs than its
// spec (its digest recomputed to match), or is a link to a device or a
// FIFO, is generated again, never measured nor waited on.
func TestForgedCacheRegenerated(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Seed: 79, CAs: 64, Hits: 64, Misses: 0}
	made, err := CachedIn(context.Background(), dir, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(made.CAs) != spec.CAs || len(made.Hits) != spec.Hits {
		t.Fatalf("generated %d CAs, %d hits; the spec says %d, %d", len(made.CAs), len(made.Hits), spec.CAs, spec.Hits)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.gob"))
	forged := &Corpus{At: made.At, Source: made.Source, CAs: made.CAs[:8], CRLs: made.CRLs}
	forged.expectIssuers(made.leaves)
	forged.ComputeDigest()
	if err := save(files[0], spec, forged); err != nil {
		t.Fatal(err)
	}
	if _, err := load(files[0], spec); err == nil {
		t.Fatal("a cache of 8 CAs was read back as the 64 of its spec")
	}
	forget := func() { cache.Lock(); delete(cache.m, spec); cache.Unlock() }
	forget()
	again, err := CachedIn(context.Background(), dir, spec, nil)
	if err != nil || len(again.CAs) != spec.CAs || again.Digest != made.Digest {
		t.Fatalf("after forging: %v, %d CAs, want %d generated again", err, len(again.CAs), spec.CAs)
	}
	for _, plant := range []func(string) error{
		func(p string) error { return os.Symlink("/dev/zero", p) },
		func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		os.Remove(files[0])
		if err := plant(files[0]); err != nil {
			t.Fatal(err)
		}
		forget()
		done := make(chan error, 1)
		go func() { _, err := CachedIn(context.Background(), dir, spec, nil); done <- err }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("with a planted cache file: %v", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("a planted cache file blocked the load")
		}
	}
}
