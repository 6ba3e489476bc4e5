package store_test

import (
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/perfrun/perfrun/store"
)

// FuzzCanonicalName feeds arbitrary DER to the name canonicalizer: it must
// never panic, and canonicalizing is idempotent — the canonical SETs,
// wrapped back in a SEQUENCE, canonicalize to themselves.
func FuzzCanonicalName(f *testing.F) {
	f.Add([]byte{0x30, 0x00})
	f.Add([]byte("\x30\x0e\x31\x0c\x30\x0a\x06\x03\x55\x04\x03\x13\x03A  b"))
	f.Add([]byte("\x30\x10\x31\x0e\x30\x0c\x06\x03\x55\x04\x03\x1e\x05\x00A\x00 b"))
	f.Add([]byte("\x30\x12\x31\x10\x30\x0e\x06\x03\x55\x04\x0a\x0c\x07 Ex  A "))
	f.Fuzz(func(t *testing.T, der []byte) {
		n, err := store.CanonicalName(der)
		if err != nil {
			return
		}
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddBytes([]byte(n)) })
		again, err := store.CanonicalName(b.BytesOrPanic())
		if err != nil {
			t.Fatalf("canonical form %x does not parse: %v", n, err)
		}
		if again != n {
			t.Fatalf("not idempotent:\n once  %x\n twice %x", n, again)
		}
	})
}
