//go:build openssl

package impls

import (
	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
)

// With the openssl build tag, the real store joins the models, last.
func init() {
	All = append(All, store.Impl{Name: "openssl", Description: "the real X509_STORE of the linked libcrypto (cgo)",
		Library: openssl.Version(), Rule: store.IgnoresCAFlags, New: openssl.New})
}

// Missing is empty: every implementation perfrun knows is compiled in.
var Missing []string
