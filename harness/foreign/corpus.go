package foreign

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Files are what a command's {corpus} directory holds: every object
// of the cell's corpus as PEM (the certificates, then the CRLs), the one
// leaf looked up (its issuer in the store when hit=1, absent when hit=0)
// under the name perftools' x509storeissuer reads, every leaf of that kind
// that perfrun's own lookups rotate over (for a driver that wants their
// working set, not one leaf's), and an empty directory for a
// hashed-directory lookup that must find nothing. OpenSSL's own tools load
// the first through SSL_CERT_FILE and the last through SSL_CERT_DIR.
var Files = struct{ Objects, Leaf, Leaves, EmptyDir string }{"objects.pem", "servercert.pem", "leaves.pem", "empty"}

// WriteCorpus writes Files for co into a new temporary directory:
// its leaves are the first limit of the kind hit asks for (all when limit
// is 0), the leaves perfrun's own lookups rotate over.
func WriteCorpus(co *corpus.Corpus, hit float64, limit int) (string, error) {
	var leaves []corpus.Leaf
	switch {
	case hit == 1 && len(co.Hits) > 0:
		leaves = co.Hits
	case hit == 0 && len(co.Misses) > 0:
		leaves = co.Misses
	case hit != 0 && hit != 1:
		return "", fmt.Errorf("a command looks up leaves of one kind: hit must be 0 or 1, not %v", hit)
	default:
		return "", fmt.Errorf("corpus %s has no leaf for hit=%v", co.Source, hit)
	}
	leaves = workloads.FirstLeaves(leaves, limit)
	dir, err := os.MkdirTemp("", "perfrun-command-")
	if err != nil {
		return "", err
	}
	var objs bytes.Buffer
	for _, o := range co.Objects() {
		typ := "CERTIFICATE"
		if o.Kind == store.CRL {
			typ = "X509 CRL"
		}
		pem.Encode(&objs, &pem.Block{Type: typ, Bytes: o.DER})
	}
	var all bytes.Buffer
	for _, l := range leaves {
		pem.Encode(&all, &pem.Block{Type: "CERTIFICATE", Bytes: l.Cert.DER})
	}
	err = errors.Join(
		os.WriteFile(filepath.Join(dir, Files.Objects), objs.Bytes(), 0o644),
		os.WriteFile(filepath.Join(dir, Files.Leaf), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaves[0].Cert.DER}), 0o644),
		os.WriteFile(filepath.Join(dir, Files.Leaves), all.Bytes(), 0o644),
		os.Mkdir(filepath.Join(dir, Files.EmptyDir), 0o755))
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("writing the corpus for a command: %w", err)
	}
	return dir, nil
}
