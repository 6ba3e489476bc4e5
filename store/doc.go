// Package store defines what a certificate store is in perfrun: the object
// model (certificates and CRLs parsed from real DER by crypto/x509),
// OpenSSL-style canonical names, the issuer-selection rule, and the Store
// interface that every implementation under impls/ satisfies.
//
// The model is OpenSSL's X509_STORE. Lookup data — canonical names, key
// identifiers, validity, flags, fingerprint — is computed once when an
// object is parsed and never per comparison. Issuer selection is exactly
// X509_STORE_CTX_get1_issuer's (see SelectIssuer), so every implementation
// must return the very same *Object for the same store contents.
//
// # Concurrency contract
//
// Every method is safe to call from many goroutines at once. Each call takes
// effect atomically at one instant between its start and its return: a
// lookup never sees half of an Add batch or half of a ReplaceCRLs, and
// Objects is a snapshot of one moment. Once Add returns, every call that
// starts later sees the added objects. Objects are immutable, so stores hand
// out the same *Object values to every caller; the slices they return are
// fresh and owned by the caller. A lookup on a warm store must not allocate.
//
// Unlike crypto/x509.CertPool, which is built once and then shared
// read-only, a Store is mutated while it is read, as X509_STORE is; how each
// implementation pays for that is what perfrun measures.
//
// Its promise: the contract above and this package's exported API are kept;
// a breaking change bumps the major version.
package store
