// Package impls is the ordered registry of store implementations. The order
// is the order of every table, plot and CLI listing: from the OpenSSL 3.0
// model to the lock-free design, then — built with the openssl tag — the
// real store.
//
// Its place: above every design and the harness (the harness never names a
// design), below the CLI; tests anywhere may import it to run every
// built-in design.
//
// Its promise: the built-in designs' names and their order, and Names,
// Lookup, All and Register, keep their meaning.
package impls

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/impls/hashmap"
	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/impls/sorted"
	"github.com/perfrun/perfrun/impls/sortoninsert"
	"github.com/perfrun/perfrun/store"
)

// all is every implementation in presentation order; Register adds to it.
var all = []store.Impl{
	{Name: "sorted", Description: "OpenSSL 3.0: one lazily sorted slice, every access under one exclusive lock", New: sorted.New},
	{Name: "sortoninsert", Description: "kept sorted on insert (binary search + memmove), lookups under a shared read lock", New: sortoninsert.New},
	{Name: "hashmap", Description: "OpenSSL 4.0 (PR 28599): name -> short list map under a read/write lock", New: hashmap.New},
	{Name: "rcu", Description: "lock-free readers after OpenSSL's hash table: one atomic table, entries published copy-on-write", New: rcu.New},
}

// Names returns the registered names in order.
func Names() []string {
	names := make([]string, len(all))
	for i, im := range all {
		names[i] = im.Name
	}
	return names
}

// Register adds implementations after the others, in order, stopping at
// the first it refuses: stores kept outside this repository, handed to
// perfrun.Main. Each name must be new and of lower case letters, digits
// and '-' (it becomes a benchmark name key).
func Register(ims ...store.Impl) error {
	for _, im := range ims {
		if err := register(im); err != nil {
			return err
		}
	}
	return nil
}

// register adds one implementation, or says why not.
func register(im store.Impl) error {
	if im.Name == "" || strings.IndexFunc(im.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) >= 0 {
		return fmt.Errorf("implementation name %q: want lower case letters, digits and '-'", im.Name)
	}
	if im.New == nil {
		return fmt.Errorf("implementation %s has no constructor", im.Name)
	}
	if _, err := Lookup(im.Name); err == nil {
		return fmt.Errorf("implementation %s is registered twice", im.Name)
	}
	all = append(all, im)
	return nil
}

// Lookup finds an implementation by name.
func Lookup(name string) (store.Impl, error) {
	for _, im := range all {
		if im.Name == name {
			return im, nil
		}
	}
	return store.Impl{}, fmt.Errorf("unknown implementation %q (have %s)", name, strings.Join(Names(), ", "))
}

// All returns every implementation in presentation order, in a slice the
// caller owns.
func All() []store.Impl { return slices.Clone(all) }
