package store_test

import (
	"encoding/asn1"
	"testing"

	"github.com/perfrun/perfrun/store"
)

// rdn builds one AttributeTypeAndValue with a value of the given string tag.
type atv struct {
	oid   asn1.ObjectIdentifier
	tag   int
	value []byte
}

var (
	oidCN = asn1.ObjectIdentifier{2, 5, 4, 3}
	oidO  = asn1.ObjectIdentifier{2, 5, 4, 10}
)

// nameDER encodes an RDNSequence; each inner slice is one RDN SET.
func nameDER(t *testing.T, rdns ...[]atv) []byte {
	t.Helper()
	var seq []asn1.RawValue
	for _, set := range rdns {
		var members []byte
		for _, a := range set {
			oid, err := asn1.Marshal(a.oid)
			if err != nil {
				t.Fatal(err)
			}
			val, err := asn1.Marshal(asn1.RawValue{Tag: a.tag, Bytes: a.value})
			if err != nil {
				t.Fatal(err)
			}
			m, err := asn1.Marshal(asn1.RawValue{Tag: asn1.TagSequence, IsCompound: true, Bytes: append(oid, val...)})
			if err != nil {
				t.Fatal(err)
			}
			members = append(members, m...)
		}
		seq = append(seq, asn1.RawValue{Tag: asn1.TagSet, IsCompound: true, Bytes: members})
	}
	der, err := asn1.Marshal(seq)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func canon(t *testing.T, der []byte) store.Name {
	t.Helper()
	n, err := store.CanonicalName(der)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func bmp(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r>>8), byte(r))
	}
	return b
}

func universal(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
	}
	return b
}

func TestCanonicalNameEquivalences(t *testing.T) {
	const utf8, printable, t61, ia5, bmpTag, univ = 12, 19, 20, 22, 30, 28
	want := canon(t, nameDER(t, []atv{{oidO, utf8, []byte("example org")}}, []atv{{oidCN, utf8, []byte("root ca")}}))
	same := map[string][]byte{
		"upper case":           nameDER(t, []atv{{oidO, printable, []byte("EXAMPLE ORG")}}, []atv{{oidCN, printable, []byte("Root CA")}}),
		"leading and trailing": nameDER(t, []atv{{oidO, utf8, []byte("  example org\t")}}, []atv{{oidCN, utf8, []byte("\nroot ca ")}}),
		"inner runs":           nameDER(t, []atv{{oidO, utf8, []byte("example \t\r\n org")}}, []atv{{oidCN, utf8, []byte("root    ca")}}),
		"T61String":            nameDER(t, []atv{{oidO, t61, []byte("Example Org")}}, []atv{{oidCN, t61, []byte("Root CA")}}),
		"IA5String":            nameDER(t, []atv{{oidO, ia5, []byte("Example Org")}}, []atv{{oidCN, ia5, []byte("Root CA")}}),
		"BMPString":            nameDER(t, []atv{{oidO, bmpTag, bmp("Example Org")}}, []atv{{oidCN, bmpTag, bmp("ROOT CA")}}),
		"UniversalString":      nameDER(t, []atv{{oidO, univ, universal("Example Org")}}, []atv{{oidCN, univ, universal("root  ca")}}),
	}
	for name, der := range same {
		if got := canon(t, der); got != want {
			t.Errorf("%s: canonical encoding differs:\n got %x\nwant %x", name, got, want)
		}
	}
	different := map[string][]byte{
		"other value":     nameDER(t, []atv{{oidO, utf8, []byte("example org")}}, []atv{{oidCN, utf8, []byte("root ca 2")}}),
		"other attribute": nameDER(t, []atv{{oidO, utf8, []byte("example org")}}, []atv{{oidO, utf8, []byte("root ca")}}),
		"other RDN order": nameDER(t, []atv{{oidCN, utf8, []byte("root ca")}}, []atv{{oidO, utf8, []byte("example org")}}),
		"one RDN of two":  nameDER(t, []atv{{oidO, utf8, []byte("example org")}, {oidCN, utf8, []byte("root ca")}}),
		"inner space cut": nameDER(t, []atv{{oidO, utf8, []byte("exampleorg")}}, []atv{{oidCN, utf8, []byte("root ca")}}),
		"non-ASCII case":  nameDER(t, []atv{{oidO, utf8, []byte("ÉXAMPLE org")}}, []atv{{oidCN, utf8, []byte("root ca")}}),
	}
	for name, der := range different {
		if got := canon(t, der); got == want {
			t.Errorf("%s: matches, want a different name", name)
		}
	}
}

func TestCanonicalNameMultiValuedRDNOrder(t *testing.T) {
	const utf8 = 12
	a := nameDER(t, []atv{{oidO, utf8, []byte("Org")}, {oidCN, utf8, []byte("CA")}})
	b := nameDER(t, []atv{{oidCN, utf8, []byte("ca")}, {oidO, utf8, []byte("org")}})
	if canon(t, a) != canon(t, b) {
		t.Error("members of one RDN SET in another order give another canonical name")
	}
}

func TestCanonicalNameEncoding(t *testing.T) {
	// One RDN, CN=" A  b ": the SET, re-encoded as UTF8String "a b",
	// without the outer SEQUENCE.
	got := canon(t, nameDER(t, []atv{{oidCN, 19, []byte(" A  b ")}}))
	want := "\x31\x0c\x30\x0a\x06\x03\x55\x04\x03\x0c\x03a b"
	if string(got) != want {
		t.Fatalf("canonical encoding = %x, want %x", got, want)
	}
	if got := canon(t, []byte{0x30, 0x00}); got != "" {
		t.Fatalf("empty name = %x, want empty", got)
	}
}

func TestCanonicalNameKeepsNonStringValues(t *testing.T) {
	// An OCTET STRING value is not canonicalized: case still matters.
	a := canon(t, nameDER(t, []atv{{oidCN, 4, []byte("ABC")}}))
	b := canon(t, nameDER(t, []atv{{oidCN, 4, []byte("abc")}}))
	if a == b {
		t.Fatal("non-string values were lower-cased")
	}
}

func TestCanonicalNameErrors(t *testing.T) {
	bad := map[string][]byte{
		"empty input":      {},
		"not a SEQUENCE":   {0x31, 0x00},
		"trailing bytes":   {0x30, 0x00, 0x00},
		"truncated":        nameDER(t, []atv{{oidCN, 12, []byte("x")}})[:8],
		"odd BMPString":    nameDER(t, []atv{{oidCN, 30, []byte{0, 'a', 0}}}),
		"invalid UTF8":     nameDER(t, []atv{{oidCN, 12, []byte{0xff, 0xfe}}}),
		"bad UniversalStr": nameDER(t, []atv{{oidCN, 28, []byte{0, 0, 'a'}}}),
		"RDN not a SET":    {0x30, 0x02, 0x30, 0x00},
	}
	for name, der := range bad {
		if _, err := store.CanonicalName(der); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCompareNames(t *testing.T) {
	names := []store.Name{"", "\x00", "\xff", "\x00\x00", "\x00\x01", "\x01\x00"}
	for i := range names {
		for j := range names {
			got := store.CompareNames(names[i], names[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("CompareNames(%q, %q) = %d, want %d", names[i], names[j], got, want)
			}
		}
	}
}
