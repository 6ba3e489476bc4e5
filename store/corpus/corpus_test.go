package corpus_test

import (
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// goldenDigest pins the generated corpus for goldenSpec: any change to the
// generator that changes a byte of DER changes it. Update it only on
// purpose, and say so in the commit.
const goldenDigest = "f640a6a20cd070a8"

var goldenSpec = corpus.Spec{Seed: 1, CAs: 100, Hits: 100, Misses: 12}

func TestGenerateDeterministic(t *testing.T) {
	a, err := corpus.Generate(goldenSpec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := corpus.Generate(goldenSpec)
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest != b.Digest {
		t.Fatalf("two generations differ: %s vs %s", a.Digest, b.Digest)
	}
	if a.Digest != goldenDigest {
		t.Fatalf("digest %s, want the committed %s: the generator's output changed", a.Digest, goldenDigest)
	}
	other := goldenSpec
	other.Seed = 2
	if c, _ := corpus.Generate(other); c.Digest == a.Digest {
		t.Fatal("another seed gives the same corpus")
	}
}

// TestGenerateShape checks that the corpus holds what makes lookups
// realistic.
func TestGenerateShape(t *testing.T) {
	c, err := corpus.Generate(corpus.Spec{Seed: 1, CAs: 400, Hits: 400, Misses: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.CAs) != 400 || len(c.Misses) != 20 || len(c.Hits) != 400 {
		t.Fatalf("got %d CAs, %d hits, %d misses", len(c.CAs), len(c.Hits), len(c.Misses))
	}
	byName := make(map[store.Name][]*store.Object)
	spellings := make(map[store.Name]map[string]bool)
	expired := 0
	for _, ca := range c.CAs {
		byName[ca.Subject] = append(byName[ca.Subject], ca)
		if spellings[ca.Subject] == nil {
			spellings[ca.Subject] = make(map[string]bool)
		}
		spellings[ca.Subject][string(ca.Certificate.RawSubject)] = true
		if !store.TimeValid(ca, c.At) {
			expired++
		}
	}
	multi, respelled, crossSigned := 0, 0, 0
	for name, list := range byName {
		if len(list) > 1 {
			multi++
		}
		if len(spellings[name]) > 1 {
			respelled++
		}
		for _, ca := range list {
			if ca.Issuer != ca.Subject {
				crossSigned++
			}
		}
	}
	if multi == 0 || respelled == 0 || crossSigned == 0 || expired == 0 {
		t.Fatalf("names with several CAs %d, respelled %d, cross-signed %d, expired %d: want all > 0",
			multi, respelled, crossSigned, expired)
	}
	crlIssuers := make(map[store.Name]bool)
	for _, crl := range c.CRLs {
		crlIssuers[crl.Subject] = true
	}
	for name := range byName {
		if !crlIssuers[name] {
			t.Fatal("a CA name has no CRL")
		}
	}
	for _, l := range c.Hits {
		if got, ok := store.SelectIssuer(l.Cert, c.At, byName[l.Cert.Issuer]); !ok || got != l.Issuer {
			t.Fatalf("expected issuer of %v is not what selection gives", l.Cert)
		}
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func pemOf(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func TestLoadBundleAndProblems(t *testing.T) {
	c, err := corpus.Generate(corpus.Spec{Seed: 5, CAs: 6, Hits: 2, Misses: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var good strings.Builder
	for _, o := range c.CAs {
		good.WriteString(pemOf("CERTIFICATE", o.DER))
	}
	good.WriteString(pemOf("X509 CRL", c.CRLs[0].DER))
	good.WriteString(pemOf("CERTIFICATE", c.Hits[0].Cert.DER))
	bad := "comment line\n" + pemOf("PRIVATE KEY", []byte{1, 2}) + pemOf("CERTIFICATE", []byte("not DER")) +
		"-----BEGIN CERTIFICATE-----\nMIIB\n"
	bundle := writeFile(t, dir, "bundle.pem", good.String()+bad)

	got, problems, err := corpus.Load(bundle, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.CAs) != len(c.CAs) || len(got.CRLs) != 1 || len(got.Hits) != 1 {
		t.Fatalf("loaded %d CAs, %d CRLs, %d hits; want %d, 1, 1", len(got.CAs), len(got.CRLs), len(got.Hits), len(c.CAs))
	}
	if len(problems) != 3 {
		t.Fatalf("problems = %v, want 3 (key block, bad DER, truncated block)", problems)
	}
	lines := strings.Count(good.String(), "\n")
	for i, want := range []int{lines + 2, lines + 2 + 3, lines + 2 + 3 + 3} {
		var be *corpus.BlockError
		if !errors.As(problems[i], &be) || be.File != bundle || be.Line != want {
			t.Errorf("problem %d = %v, want %s:%d", i, problems[i], bundle, want)
		}
	}
	if _, _, err := corpus.Load(bundle, true); err == nil {
		t.Fatal("strict load accepted bad blocks")
	}
}

func TestLoadDirectoryAndErrors(t *testing.T) {
	c, err := corpus.Generate(corpus.Spec{Seed: 5, CAs: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, dir, "a.pem", pemOf("CERTIFICATE", c.CAs[0].DER))
	writeFile(t, dir, "b.der", string(c.CAs[1].DER))
	writeFile(t, dir, "c.r0", string(c.CRLs[0].DER))
	got, problems, err := corpus.Load(dir, true)
	if err != nil || len(problems) != 0 {
		t.Fatalf("Load(dir) = %v, %v", err, problems)
	}
	if len(got.CAs) != 2 || len(got.CRLs) != 1 || got.CAs[0].Fingerprint != c.CAs[0].Fingerprint {
		t.Fatalf("loaded %d CAs and %d CRLs in the wrong order", len(got.CAs), len(got.CRLs))
	}
	empty := t.TempDir()
	for name, path := range map[string]string{
		"missing":   filepath.Join(dir, "nope"),
		"empty dir": empty,
		"empty":     writeFile(t, t.TempDir(), "e.pem", ""),
		"garbage":   writeFile(t, t.TempDir(), "g.pem", "hello\n"),
	} {
		if _, _, err := corpus.Load(path, false); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLoadSystemBundle(t *testing.T) {
	const path = "/etc/ssl/certs/ca-certificates.crt"
	if _, err := os.Stat(path); err != nil {
		t.Skip("no system CA bundle")
	}
	c, problems, err := corpus.Load(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.CAs) < 50 {
		t.Fatalf("only %d CAs in the system bundle", len(c.CAs))
	}
	t.Logf("%s: %d CAs, %d CRLs, %d leaves, %d problems", path, len(c.CAs), len(c.CRLs), len(c.Hits)+len(c.Misses), len(problems))
}

// TestLoadKeepsDuplicatesOnce: a bundle that lists one CA three times holds
// it once, as a store would, and says how many it skipped; a CA bundle's
// size in cell names is then what the store holds.
func TestLoadKeepsDuplicatesOnce(t *testing.T) {
	g, err := corpus.Generate(corpus.Spec{Seed: 3, CAs: 2})
	if err != nil {
		t.Fatal(err)
	}
	one := corpus.EncodePEM(g.CAs[:1])
	path := filepath.Join(t.TempDir(), "dup.pem")
	os.WriteFile(path, append(append(append([]byte(nil), one...), one...), append(one, corpus.EncodePEM(g.CAs[1:2])...)...), 0o644)
	c, _, err := corpus.Load(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.CAs) != 2 || c.Duplicates != 2 {
		t.Fatalf("%d CAs, %d duplicates; want 2 and 2", len(c.CAs), c.Duplicates)
	}
}

// TestLoadHashedDirectory: /etc/ssl/certs holds each CA as a file and as
// hash-named links to it; loaded, each CA counts once.
func TestLoadHashedDirectory(t *testing.T) {
	const dir, bundle = "/etc/ssl/certs", "/etc/ssl/certs/ca-certificates.crt"
	if _, err := os.Stat(bundle); err != nil {
		t.Skip("no system CA directory")
	}
	b, _, err := corpus.Load(bundle, false)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := corpus.Load(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.CAs) != len(b.CAs) {
		t.Fatalf("%s: %d CAs, the bundle %d (duplicates skipped: %d)", dir, len(d.CAs), len(b.CAs), d.Duplicates)
	}
}

// TestLoadRefusesFIFO: a FIFO given as a corpus blocked its reader in
// open and ignored SIGTERM; it is refused before it is opened.
func TestLoadRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "bundle.pem")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := corpus.Load(fifo, false); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, corpus.ErrNotAFile) {
			t.Errorf("Load(fifo) = %v, want ErrNotAFile", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on the FIFO")
	}
}

// TestLoadedDigestIsTheFiles: the same files read at two times are one
// input (their runs compare), where a generated corpus's time is part of
// what it is.
func TestLoadedDigestIsTheFiles(t *testing.T) {
	c, err := corpus.Generate(corpus.Spec{Seed: 5, CAs: 6, Hits: 2, Misses: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, o := range c.CAs {
		b.WriteString(pemOf("CERTIFICATE", o.DER))
	}
	b.WriteString(pemOf("CERTIFICATE", c.Hits[0].Cert.DER))
	bundle := writeFile(t, t.TempDir(), "bundle.pem", b.String())
	loaded, _, err := corpus.Load(bundle, true)
	if err != nil {
		t.Fatal(err)
	}
	first := loaded.Digest
	loaded.At = loaded.At.Add(time.Hour)
	if loaded.ComputeDigest(); loaded.Digest != first {
		t.Errorf("the same files read an hour later: digest %s, then %s", first, loaded.Digest)
	}
	generated := c.Digest
	c.At = c.At.Add(time.Hour)
	if c.ComputeDigest(); c.Digest == generated {
		t.Error("a generated corpus an hour later kept its digest: its time is part of it")
	}
}

// TestFitsMemory: a corpus no machine holds is refused before any of it
// is made, naming the request; a small one fits.
func TestFitsMemory(t *testing.T) {
	hits, misses := corpus.GeneratedLeaves(1 << 40)
	if err := corpus.FitsMemory(1<<40, hits+misses, "certs=1099511627776"); err == nil || !strings.Contains(err.Error(), "certs=1099511627776 needs about") {
		t.Errorf("a corpus of 2^40 CAs: %v, want a refusal naming it", err)
	}
	if err := corpus.FitsMemory(16, 20, "certs=16"); err != nil {
		t.Errorf("16 CAs: %v", err)
	}
}
