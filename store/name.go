package store

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Name is the canonical encoding of an X.509 distinguished name, the key
// every store indexes by. Two names match iff their canonical encodings are
// equal. It is a string so that it can key a map without copying.
//
// The encoding follows OpenSSL's x509_name_canon: every string value is
// converted to UTF-8, ASCII letters are lower-cased, leading and trailing
// whitespace is removed and inner runs of whitespace become one space; each
// RDN SET is then re-encoded in DER (values as UTF8String) and the SETs are
// concatenated without the outer SEQUENCE. Values of non-string types keep
// their original encoding.
type Name string

// CompareNames orders names the way OpenSSL does: by encoding length, then
// bytes. It returns -1, 0 or +1.
func CompareNames(a, b Name) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(string(a), string(b))
}

// ErrBadName reports a name that is not valid DER or holds an invalid string.
var ErrBadName = errors.New("malformed distinguished name")

// CanonicalName computes the canonical encoding of a DER-encoded Name (an
// RDNSequence, as in x509.Certificate.RawSubject).
func CanonicalName(der []byte) (Name, error) {
	in := cryptobyte.String(der)
	var rdns cryptobyte.String
	if !in.ReadASN1(&rdns, cbasn1.SEQUENCE) || !in.Empty() {
		return "", ErrBadName
	}
	var out cryptobyte.Builder
	for !rdns.Empty() {
		var set cryptobyte.String
		if !rdns.ReadASN1(&set, cbasn1.SET) {
			return "", ErrBadName
		}
		var entries [][]byte
		for !set.Empty() {
			entry, err := canonicalEntry(&set)
			if err != nil {
				return "", err
			}
			entries = append(entries, entry)
		}
		// DER orders the members of a SET OF by their encodings.
		slices.SortFunc(entries, compareDER)
		out.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
			for _, e := range entries {
				b.AddBytes(e)
			}
		})
	}
	enc, err := out.Bytes()
	if err != nil {
		return "", ErrBadName
	}
	return Name(enc), nil
}

// canonicalEntry reads one AttributeTypeAndValue and returns its canonical
// DER encoding.
func canonicalEntry(set *cryptobyte.String) ([]byte, error) {
	var atv, oid, value cryptobyte.String
	var tag cbasn1.Tag
	if !set.ReadASN1(&atv, cbasn1.SEQUENCE) ||
		!atv.ReadASN1Element(&oid, cbasn1.OBJECT_IDENTIFIER) ||
		!atv.ReadAnyASN1Element(&value, &tag) || !atv.Empty() {
		return nil, ErrBadName
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(oid)
		text, isString, err := decodeString(value, tag)
		if err != nil {
			b.SetError(err)
			return
		}
		if !isString {
			b.AddBytes(value)
			return
		}
		b.AddASN1(cbasn1.UTF8String, func(b *cryptobyte.Builder) {
			b.AddBytes(canonicalText(text))
		})
	})
	return b.Bytes()
}

// ASN.1 string tags that OpenSSL canonicalizes (its ASN1_MASK_CANON).
const (
	tagUTF8String      = cbasn1.Tag(12)
	tagPrintableString = cbasn1.Tag(19)
	tagT61String       = cbasn1.Tag(20)
	tagIA5String       = cbasn1.Tag(22)
	tagVisibleString   = cbasn1.Tag(26)
	tagUniversalString = cbasn1.Tag(28)
	tagBMPString       = cbasn1.Tag(30)
)

// decodeString returns the UTF-8 text of a string-typed value element, or
// isString false for other types.
func decodeString(elem cryptobyte.String, tag cbasn1.Tag) (text []byte, isString bool, err error) {
	var body cryptobyte.String
	if !elem.ReadASN1(&body, tag) {
		return nil, false, ErrBadName
	}
	switch tag {
	case tagUTF8String:
		if !utf8.Valid(body) {
			return nil, true, ErrBadName
		}
		return body, true, nil
	case tagPrintableString, tagIA5String, tagVisibleString, tagT61String:
		// One byte per character; OpenSSL reads bytes above 0x7F as Latin-1.
		return latin1ToUTF8(body), true, nil
	case tagBMPString:
		if len(body)%2 != 0 {
			return nil, true, ErrBadName
		}
		units := make([]uint16, len(body)/2)
		for i := range units {
			units[i] = uint16(body[2*i])<<8 | uint16(body[2*i+1])
		}
		return []byte(string(utf16.Decode(units))), true, nil
	case tagUniversalString:
		if len(body)%4 != 0 {
			return nil, true, ErrBadName
		}
		var out []byte
		for i := 0; i < len(body); i += 4 {
			r := rune(body[i])<<24 | rune(body[i+1])<<16 | rune(body[i+2])<<8 | rune(body[i+3])
			if !utf8.ValidRune(r) {
				return nil, true, ErrBadName
			}
			out = utf8.AppendRune(out, r)
		}
		return out, true, nil
	}
	return nil, false, nil
}

func latin1ToUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// isSpace matches OpenSSL's ossl_isspace: ASCII whitespace only.
func isSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// canonicalText trims, collapses whitespace runs to one space and
// lower-cases ASCII letters; other bytes pass through unchanged.
func canonicalText(s []byte) []byte {
	out := make([]byte, 0, len(s))
	space := false
	for _, c := range s {
		if isSpace(c) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return out
}

func compareDER(a, b []byte) int {
	// DER SET OF: compare as octet strings, the shorter padded with zeros.
	n := min(len(a), len(b))
	if c := strings.Compare(string(a[:n]), string(b[:n])); c != 0 {
		return c
	}
	return len(a) - len(b)
}
