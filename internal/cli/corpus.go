package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

var cmdCorpus = &subcommand.Command{
	MaxArgs: 0, Name: "corpus", Args: "[flags] -o DIR", Short: "write the generated corpus as PEM files with a manifest",
	Long: `Corpus writes the generated corpus as PEM files, so the very same workload
can be fed to OpenSSL or another stack:

	DIR/cas.pem        the CA certificates, in insertion order
	DIR/crls.pem       the CRLs
	DIR/leaves/N.pem   one file per leaf
	DIR/manifest.tsv   per leaf: file, expected issuer (sha256, subject) or "-" for a miss,
	                   and the verification time (openssl verify -attime)`,
}

func init() { cmdCorpus.Define = corpusFlags }

func corpusFlags(fs *flag.FlagSet) subcommand.RunFunc {
	dir := fs.String("o", "", "output directory (created; must be new or empty)")
	cas := fs.Int("cas", 1024, "CA certificates")
	hits := fs.Int("hits", 256, "leaves whose issuer is present")
	misses := fs.Int("misses", 32, "leaves whose issuer is absent")
	seed := fs.Uint64("seed", 1, "seed")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if *dir == "" {
			return subcommand.UsageError("-o DIR is required")
		}
		if *cas < 1 || *hits < 0 || *misses < 0 {
			return subcommand.UsageError("-cas must be positive, -hits and -misses not negative")
		}
		if err := corpus.FitsMemory(*cas, min(*hits, 1<<40)+min(*misses, 1<<40), fmt.Sprintf("-cas %d -hits %d -misses %d", *cas, *hits, *misses)); err != nil {
			return subcommand.AsUsage(err)
		}
		if err := emptyOrNew(*dir); err != nil {
			return err
		}
		ctx, stop := terminal.Interruptible(ctx)
		defer stop()
		c, err := corpus.GenerateContext(ctx, corpus.Spec{Seed: *seed, CAs: *cas, Hits: *hits, Misses: *misses}, sweep.ProgressAfter(o.Stderr, "corpus", "certificates"))
		if err != nil {
			return err
		}
		if err := writeCorpus(*dir, c); err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "wrote %s: %d CAs, %d CRLs, %d leaves (%d with issuer), digest %s, verify at %d (%s)\n",
			*dir, len(c.CAs), len(c.CRLs), len(c.Hits)+len(c.Misses), len(c.Hits), c.Digest, c.At.Unix(), c.At.Format("2006-01-02"))
		return nil
	}
}

// emptyOrNew refuses a folder that holds anything: leaves of an older
// corpus left there would be loaded with the new one's.
// A path that is a file, or a folder that holds anything, is a bad -o
// (exit 2), refused before the corpus is generated.
func emptyOrNew(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return subcommand.UsageError("-o %s is a file: perfrun corpus writes a corpus into a new or empty folder", dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case len(entries) > 0:
		if _, err := os.Stat(filepath.Join(dir, corpus.ManifestName)); err == nil {
			return subcommand.UsageError("%s already holds a corpus: write the new one to a new or empty folder", dir)
		}
		return subcommand.UsageError("%s is not empty: perfrun corpus writes a whole corpus into a new or empty folder", dir)
	}
	return nil
}

func writeCorpus(dir string, c *corpus.Corpus) error {
	if err := os.MkdirAll(filepath.Join(dir, "leaves"), 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"cas.pem": corpus.EncodePEM(c.CAs), "crls.pem": corpus.EncodePEM(c.CRLs)}
	var manifest bytes.Buffer
	fmt.Fprintf(&manifest, "# leaf\texpected-issuer-sha256\texpected-issuer-subject\tat-unix\n")
	for i, l := range append(append([]corpus.Leaf(nil), c.Hits...), c.Misses...) {
		name := fmt.Sprintf("leaves/%05d.pem", i)
		files[name] = corpus.EncodePEM([]*store.Object{l.Cert})
		fp, subject := "-", "-"
		if l.Issuer != nil {
			fp, subject = hex.EncodeToString(l.Issuer.Fingerprint[:]), l.Issuer.Label
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%s\t%d\n", name, fp, subject, c.At.Unix())
	}
	files[corpus.ManifestName] = manifest.Bytes()
	for name, data := range files {
		if err := regularfile.WriteOwned(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}
