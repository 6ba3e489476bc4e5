// Package impls is the ordered registry of store implementations. The order
// is the order of every table, plot and CLI listing: from the OpenSSL 3.0
// model to the lock-free design, then — built with the openssl tag — the
// real store.
package impls

import (
	"fmt"
	"strings"

	"github.com/perfrun/perfrun/impls/hashmap"
	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/impls/sortoninsert"
	"github.com/perfrun/perfrun/store"
)

// All lists every implementation in presentation order.
var All = []store.Impl{
	{Name: "sorted", Description: "OpenSSL 3.0: one lazily sorted slice, every access under one exclusive lock", New: sorted.New},
	{Name: "sortoninsert", Description: "kept sorted on insert (binary search + memmove), lookups under a shared read lock", New: sortoninsert.New},
	{Name: "hashmap", Description: "OpenSSL master: name -> short list map under a read/write lock", New: hashmap.New},
	{Name: "rcu", Description: "lock-free readers after OpenSSL's hash table: one atomic table, entries published copy-on-write", New: rcu.New},
}

// Names returns the registered names in order.
func Names() []string {
	names := make([]string, len(All))
	for i, im := range All {
		names[i] = im.Name
	}
	return names
}

// Lookup finds an implementation by name.
func Lookup(name string) (store.Impl, error) {
	for _, im := range All {
		if im.Name == name {
			return im, nil
		}
	}
	return store.Impl{}, fmt.Errorf("unknown implementation %q (have %s)", name, strings.Join(Names(), ", "))
}
