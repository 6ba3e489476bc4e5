package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/store"
)

// maxObjectBytes bounds one certificate or CRL of a generated corpus in a
// cache file, with room to spare (they are a few hundred bytes).
const maxObjectBytes = 16 << 10

// saved is a generated corpus as a file holds it: every object's DER in
// the order it was parsed, so a process that reads it lays the objects out
// in memory as one that generated them.
type saved struct {
	Spec      string
	At        time.Time
	CAs, CRLs [][]byte
	Leaves    [][]byte
	Digest    string
}

// CachedIn is CachedContext, keeping the corpus in dir as well: a process
// finds it there instead of generating it again (a certificate costs a
// signature and Go's check of it). dir must belong to one build of the
// generator — an A/B comparison gives each revision its own — since
// nothing in the file says which code made it. A file that does not read
// back to the digest it names is generated again.
func CachedIn(ctx context.Context, dir string, spec Spec, progress func(done, total int)) (*Corpus, error) {
	cache.Lock()
	c, ok := cache.m[spec]
	cache.Unlock()
	if ok {
		return c, nil
	}
	sum := sha256.Sum256([]byte(spec.String()))
	path := filepath.Join(dir, hex.EncodeToString(sum[:8])+".gob")
	if c, err := load(path, spec); err == nil {
		cache.Lock()
		put(spec, c)
		cache.Unlock()
		return c, nil
	}
	c, err := CachedContext(ctx, spec, progress)
	if err != nil {
		return nil, err
	}
	// A corpus that cannot be kept is only generated again next time.
	_ = save(path, spec, c)
	return c, nil
}

func save(path string, spec Spec, c *Corpus) error {
	s := saved{Spec: spec.String(), At: c.At, Digest: c.Digest}
	for _, o := range c.CAs {
		s.CAs = append(s.CAs, o.DER)
	}
	for _, o := range c.CRLs {
		s.CRLs = append(s.CRLs, o.DER)
	}
	for _, o := range c.leaves {
		s.Leaves = append(s.Leaves, o.DER)
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&s); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Written aside and renamed: a reader sees the whole file or none.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".corpus-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// load reads a cached corpus back, refusing (so that it is generated
// again, never measured) a file that is not a regular one, one larger than
// spec's corpus can be, and one that does not hold the CAs and leaves spec
// asks for — the counts the results will claim — whatever its digest says.
func load(path string, spec Spec) (*Corpus, error) {
	data, err := regularfile.ReadFile(path, int64(spec.CAs+spec.Hits+spec.Misses)*maxObjectBytes+1<<20)
	if err != nil {
		return nil, err
	}
	var s saved
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return nil, err
	}
	if s.Spec != spec.String() {
		return nil, fmt.Errorf("%s holds %s", path, s.Spec)
	}
	if len(s.CAs) != spec.CAs || len(s.Leaves) != spec.Hits+spec.Misses {
		return nil, fmt.Errorf("%s holds %d CAs and %d leaves, not the %d and %d of %s", path, len(s.CAs), len(s.Leaves), spec.CAs, spec.Hits+spec.Misses, spec)
	}
	c := &Corpus{At: s.At, Source: s.Spec}
	parse := func(ders [][]byte, p func([]byte) (*store.Object, error)) ([]*store.Object, error) {
		out := make([]*store.Object, len(ders))
		for i, der := range ders {
			if out[i], err = p(der); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if c.CAs, err = parse(s.CAs, store.ParseCertificate); err != nil {
		return nil, err
	}
	if c.CRLs, err = parse(s.CRLs, store.ParseCRL); err != nil {
		return nil, err
	}
	leaves, err := parse(s.Leaves, store.ParseCertificate)
	if err != nil {
		return nil, err
	}
	c.expectIssuers(leaves)
	if hits := len(c.Hits); hits != spec.Hits {
		return nil, fmt.Errorf("%s: %d of its leaves have their issuer, not %d", path, hits, spec.Hits)
	}
	c.ComputeDigest()
	if c.Digest != s.Digest {
		return nil, fmt.Errorf("%s reads back as corpus %s, not %s", path, c.Digest, s.Digest)
	}
	return c, nil
}
