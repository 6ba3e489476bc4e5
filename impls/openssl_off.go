//go:build !openssl

package impls

// Missing lists the implementations this build leaves out, and how to
// build them in.
var Missing = []string{"openssl: the real X509_STORE, not compiled in (go build -tags openssl; needs cgo and libssl-dev)"}
