package store

import (
	"bytes"
	"time"
)

// CheckIssued reports whether issuer may have issued cert, the checks of
// OpenSSL's check_issued without signature verification: the names match;
// the AKID key identifier equals the issuer's SKID when both are present;
// the AKID serial, when present, equals the issuer's serial; the issuer is a
// CA allowed to sign certificates; and the signature algorithm matches the
// issuer's key type.
func CheckIssued(cert, issuer *Object) bool {
	return issuer.Subject == cert.Issuer && admits(ContractRule, cert, issuer)
}

// admits is check_issued under a rule for a candidate already known to be
// stored under cert's issuer name, as SelectIssuer's are: comparing the
// two ~100-byte names again was a fifth of a hashed model's lookup.
func admits(rule Rule, cert, issuer *Object) bool {
	return issuer.Kind == Cert && (rule != ContractRule || issuer.IsCA && issuer.CanSignCerts) && checkKeys(cert, issuer)
}

// checkKeys is the part of check_issued OpenSSL's get1_issuer keeps (see
// IgnoresCAFlags): the AKID key identifier against the issuer's SKID when
// both are present, the AKID serial against the issuer's serial when
// present, and the signature algorithm against the issuer's key type.
func checkKeys(cert, issuer *Object) bool {
	if len(cert.AuthorityKeyID) > 0 && len(issuer.SubjectKeyID) > 0 &&
		!bytes.Equal(cert.AuthorityKeyID, issuer.SubjectKeyID) {
		return false
	}
	if cert.AuthoritySerial != nil && (issuer.Serial == nil || cert.AuthoritySerial.Cmp(issuer.Serial) != 0) {
		return false
	}
	return cert.SignedWith == issuer.KeyType
}

// TimeValid reports whether at lies within [NotBefore, NotAfter].
func TimeValid(o *Object, at time.Time) bool {
	return !at.Before(o.NotBefore) && !at.After(o.NotAfter)
}

// SelectIssuer picks the issuer of cert among candidates, which must be the
// certificates whose subject equals cert's issuer, in insertion order: the
// first that passes CheckIssued and is time-valid at `at`, else, among those
// that pass CheckIssued, the one with the latest notAfter (the earliest
// inserted on a tie). This is X509_STORE_CTX_get1_issuer's rule.
func SelectIssuer(cert *Object, at time.Time, candidates []*Object) (*Object, bool) {
	return SelectIssuerBy(ContractRule, cert, at, candidates)
}

// Rule names how a store picks an issuer. Every model follows the
// contract's; a real store may differ, documented and tested.
type Rule int

const (
	// ContractRule is SelectIssuer's: check_issued with the CA and
	// keyCertSign flags, as X509_check_issued checks them.
	ContractRule Rule = iota
	// IgnoresCAFlags is OpenSSL 3.0's X509_STORE_CTX_get1_issuer, whose
	// check_issued compares names, AKID and signature algorithm and
	// leaves the CA and keyCertSign flags to chain verification.
	IgnoresCAFlags
)

// SelectIssuerBy is SelectIssuer under a rule.
func SelectIssuerBy(rule Rule, cert *Object, at time.Time, candidates []*Object) (*Object, bool) {
	var best *Object
	for _, c := range candidates {
		if !admits(rule, cert, c) {
			continue
		}
		if TimeValid(c, at) {
			return c, true
		}
		if best == nil || c.NotAfter.After(best.NotAfter) {
			best = c
		}
	}
	return best, best != nil
}
