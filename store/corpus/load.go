package corpus

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/store"
)

// BlockError reports one block of a corpus file that is not a usable
// certificate or CRL: where it is and why.
type BlockError struct {
	File string
	Line int // line of the PEM BEGIN marker; 0 for a DER file
	Err  error
}

func (e *BlockError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

// ParsePEM parses every PEM block of data. Certificates and CRLs become
// objects; any other block, or a malformed one, becomes a *BlockError in
// problems, which the caller reports (nothing is dropped silently).
// Trailing bytes that look like a broken PEM block are reported too.
func ParsePEM(data []byte, file string) (objs []*store.Object, problems []error) {
	objs, problems, _ = parsePEM(context.Background(), data, file)
	return objs, problems
}

// parsePEM is ParsePEM that stops, with ctx's error, once ctx is done.
func parsePEM(ctx context.Context, data []byte, file string) (objs []*store.Object, problems []error, err error) {
	rest := data
	line := 1 // the line rest starts on: counted as it goes, so loading is linear
	for n := 0; ; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		var block *pem.Block
		block, next := pem.Decode(rest)
		if block == nil {
			if i := bytes.Index(rest, []byte("-----BEGIN")); i >= 0 {
				problems = append(problems, &BlockError{file, line + bytes.Count(rest[:i], []byte("\n")), errors.New("malformed or truncated PEM block")})
			}
			return objs, problems, nil
		}
		// pem.Decode skips text before the block; the block's line is its
		// BEGIN line.
		consumed := rest[:len(rest)-len(next)]
		at := line
		if i := bytes.Index(consumed, []byte("-----BEGIN")); i >= 0 {
			at += bytes.Count(consumed[:i], []byte("\n"))
		}
		line += bytes.Count(consumed, []byte("\n"))
		rest = next
		o, err := parseBlock(block.Type, block.Bytes)
		if err != nil {
			problems = append(problems, &BlockError{file, at, err})
			continue
		}
		objs = append(objs, o)
	}
}

func parseBlock(typ string, der []byte) (*store.Object, error) {
	switch typ {
	case "CERTIFICATE", "TRUSTED CERTIFICATE":
		o, err := store.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("certificate: %w", err)
		}
		return o, nil
	case "X509 CRL":
		o, err := store.ParseCRL(der)
		if err != nil {
			return nil, fmt.Errorf("CRL: %w", err)
		}
		return o, nil
	}
	return nil, fmt.Errorf("PEM block of type %q is neither a certificate nor a CRL", typ)
}

// parseDER parses a DER file as a certificate, else as a CRL.
func parseDER(der []byte) (*store.Object, error) {
	if o, err := store.ParseCertificate(der); err == nil {
		return o, nil
	}
	if o, err := store.ParseCRL(der); err == nil {
		return o, nil
	}
	return nil, errors.New("neither a PEM file nor a DER certificate or CRL")
}

// MaxFileBytes bounds one corpus file: a bundle of a million CAs is about
// 1.5 GB of PEM, far beyond this, and a device such as /dev/zero is
// refused here rather than read until memory runs out.
const MaxFileBytes = 256 << 20

// ErrTooLarge is returned for a corpus file larger than MaxFileBytes.
var ErrTooLarge = errors.New("larger than a corpus file may be")

// ErrNotAFile is returned for a corpus path that is no regular file: a
// FIFO or a device would block its reader, or never end.
var ErrNotAFile = errors.New("not a regular file: a corpus is a PEM bundle or a folder of PEM and DER files")

// readBounded reads a regular file, refusing one larger than limit bytes.
func readBounded(name string, limit int64) ([]byte, error) {
	data, err := regularfile.ReadFile(name, limit)
	switch {
	case errors.Is(err, regularfile.ErrNotRegular):
		return nil, fmt.Errorf("%s: %w", name, ErrNotAFile)
	case errors.Is(err, regularfile.ErrTooLarge):
		return nil, fmt.Errorf("%s: %w (%d MiB)", name, ErrTooLarge, limit>>20)
	}
	return data, err
}

// Load reads a corpus from a PEM bundle file or a directory of PEM and DER
// files (such as an OpenSSL hashed directory), in file-name order. CA
// certificates and CRLs fill the store; other certificates are the leaves.
// Bad blocks are returned in problems; with strict, any problem is an error.
// An empty corpus is always an error.
func Load(path string, strict bool) (c *Corpus, problems []error, err error) {
	return LoadContext(context.Background(), path, strict, nil)
}

// LoadContext is Load that stops once ctx is done (between files, and
// every few hundred PEM blocks) and, if progress is set, reports the bytes
// read of the bytes to read after each file.
func LoadContext(ctx context.Context, path string, strict bool, progress func(done, total int64)) (c *Corpus, problems []error, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	files := []string{path}
	if info.IsDir() {
		if files, err = listDir(path); err != nil {
			return nil, nil, err
		}
	}
	var total, done int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			total += fi.Size()
		}
	}
	var objs []*store.Object
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		data, err := readBounded(f, MaxFileBytes)
		if err != nil {
			return nil, nil, err
		}
		got, probs, err := parseFile(ctx, data, f)
		if err != nil {
			return nil, nil, err
		}
		if done += int64(len(data)); progress != nil {
			progress(done, total)
		}
		objs = append(objs, got...)
		problems = append(problems, probs...)
	}
	if strict && len(problems) > 0 {
		return nil, problems, fmt.Errorf("%v (and %d more problems)", problems[0], len(problems)-1)
	}
	c = &Corpus{At: time.Now().UTC().Truncate(time.Second), Source: path, loaded: true}
	var leaves []*store.Object
	seen := make(map[[32]byte]bool, len(objs))
	for _, o := range objs {
		// A store keeps one of each object (by fingerprint), so the corpus
		// does too: a bundle listing a CA twice, or a hashed directory whose
		// hash-named links point at files also listed, holds it once.
		if seen[o.Fingerprint] {
			c.Duplicates++
			continue
		}
		seen[o.Fingerprint] = true
		switch {
		case o.Kind == store.CRL:
			c.CRLs = append(c.CRLs, o)
		case o.IsCA:
			c.CAs = append(c.CAs, o)
		default:
			leaves = append(leaves, o)
		}
	}
	if len(c.CAs)+len(c.CRLs) == 0 {
		return nil, problems, fmt.Errorf("%s: no CA certificate or CRL found", path)
	}
	if len(leaves) > 0 {
		c.expectIssuers(leaves)
		c.ComputeDigest()
		return c, problems, nil
	}
	// The digest covers what was loaded: made leaves carry fresh
	// signatures in every process, but nothing a lookup reads changes.
	c.ComputeDigest()
	made, err := synthesizeLeaves(c)
	if err != nil {
		return nil, problems, err
	}
	c.Source = fmt.Sprintf("%s (%d %s: it has none)", c.Source, len(made), SyntheticLeaves)
	c.Digest += "+leaves"
	c.expectIssuers(made)
	return c, problems, nil
}

func parseFile(ctx context.Context, data []byte, file string) ([]*store.Object, []error, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []error{&BlockError{File: file, Err: errors.New("empty file")}}, nil
	}
	if bytes.Contains(data, []byte("-----BEGIN")) {
		return parsePEM(ctx, data, file)
	}
	o, err := parseDER(data)
	if err != nil {
		return nil, []error{&BlockError{File: file, Err: err}}, nil
	}
	return []*store.Object{o}, nil, nil
}

// ManifestName is the file perfrun corpus writes the expected issuers to.
const ManifestName = "manifest.tsv"

func listDir(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// The manifest perfrun corpus writes beside its PEM files is not a
		// certificate: a folder it wrote loads, -strict included.
		if d.Name() == ManifestName && filepath.Dir(p) == filepath.Clean(dir) {
			return nil
		}
		if d.Type().IsRegular() || (d.Type()&fs.ModeSymlink != 0) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: empty directory", dir)
	}
	sort.Strings(files)
	return files, nil
}

// EncodePEM encodes objects as one PEM bundle, the inverse of ParsePEM.
func EncodePEM(objs []*store.Object) []byte {
	var b bytes.Buffer
	for _, o := range objs {
		typ := "CERTIFICATE"
		if o.Kind == store.CRL {
			typ = "X509 CRL"
		}
		pem.Encode(&b, &pem.Block{Type: typ, Bytes: o.DER})
	}
	return b.Bytes()
}
