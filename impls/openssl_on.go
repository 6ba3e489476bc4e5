//go:build openssl

package impls

import (
	"github.com/perfrun/perfrun/impls/openssl"
	"github.com/perfrun/perfrun/store"
)

// With the openssl build tag, the real store joins the models, last.
func init() {
	all = append(all, store.Impl{Name: "openssl", Description: "the real X509_STORE of the linked libcrypto (cgo)",
		Library: openssl.Version(), Rule: store.IgnoresCAFlags, New: openssl.New},
		store.Impl{Name: "openssl-paths", Description: "the real X509_STORE with X509_STORE_set_default_paths' lookups, as perftools' x509storeissuer sets it up (cgo)",
			Library: openssl.Version() + "; " + openssl.DefaultPaths(), Rule: store.IgnoresCAFlags, New: openssl.NewDefaultPaths})
}

// Missing is empty: every implementation perfrun knows is compiled in.
var Missing []string
