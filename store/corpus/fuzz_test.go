package corpus

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// FuzzParseFile feeds arbitrary bytes to the corpus file parser (PEM or
// DER): it must never panic, every object must be a parsed certificate or
// CRL, and every problem must name the file and a line inside it.
func FuzzParseFile(f *testing.F) {
	c, err := Generate(Spec{Seed: 9, CAs: 2, Hits: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(EncodePEM(c.Objects()))
	f.Add(c.CAs[0].DER)
	f.Add(c.CRLs[0].DER)
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n"))
	f.Add([]byte("junk\n-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, problems, _ := parseFile(context.Background(), data, "fuzz.pem")
		for _, o := range objs {
			if o == nil || len(o.DER) == 0 || (o.Certificate == nil) == (o.RevocationList == nil) {
				t.Fatalf("half-parsed object %+v", o)
			}
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, p := range problems {
			var be *BlockError
			if !errors.As(p, &be) || be.File != "fuzz.pem" || be.Line < 0 || be.Line > lines {
				t.Fatalf("problem %v does not name the file and a line in 1..%d", p, lines)
			}
		}
		if len(objs) == 0 && len(problems) == 0 {
			t.Fatal("nothing parsed and nothing reported")
		}
	})
}
