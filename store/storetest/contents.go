package storetest

import (
	"bytes"
	"slices"
	"testing"

	"github.com/perfrun/perfrun/store"
)

// sameObjects reports whether a and b hold the same objects, in any order.
func sameObjects(a, b []*store.Object) bool {
	if len(a) != len(b) {
		return false
	}
	byFP := func(x, y *store.Object) int { return bytes.Compare(x.Fingerprint[:], y.Fingerprint[:]) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, byFP)
	slices.SortFunc(b, byFP)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testDuplicates(t *testing.T, newStore func() store.Store) {
	f := &fixture{t: t}
	a := f.cert(f.caSpec("Example CA", "A"))
	b := f.cert(f.caSpec("Example CA", "A"))
	crl := f.crl("Example CA", "A", 1)
	s := newStore()
	if n, err := s.Add(a, b, a, crl, crl); err != nil || n != 3 {
		t.Fatalf("Add(a, b, a, crl, crl) = %d, %v; want 3, nil", n, err)
	}
	// The same DER parsed again is a duplicate too: identity is the
	// fingerprint, not the pointer.
	again, err := store.ParseCertificate(a.DER)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Add(again); err != nil || n != 0 {
		t.Fatalf("Add(reparsed a) = %d, %v; want 0, nil", n, err)
	}
	if s.Len() != 3 {
		t.Fatalf("Len = %d, want 3", s.Len())
	}
	if n, err := s.Add(nil); err == nil || n != 0 {
		t.Fatalf("Add(nil) = %d, %v; want an error", n, err)
	}
	if n, err := s.Add(f.cert(f.caSpec("Other", "B")), nil); err == nil || n != 0 || s.Len() != 3 {
		t.Fatalf("Add(valid, nil) = %d, %v, Len %d; want the batch refused whole", n, err, s.Len())
	}
}

func testObjectsSnapshot(t *testing.T, newStore func() store.Store) {
	f := &fixture{t: t}
	want := []*store.Object{
		f.cert(f.caSpec("Example CA", "A")), f.crl("Example CA", "A", 1),
		f.cert(f.caSpec("Other CA", "B")), f.crl("Other CA", "B", 1),
	}
	s := newStore()
	if len(s.Objects()) != 0 {
		t.Fatal("Objects of an empty store is not empty")
	}
	s.Add(want...)
	got := s.Objects()
	if !sameObjects(got, want) {
		t.Fatalf("Objects = %v, want %v", got, want)
	}
	// The caller owns the slice: scribbling on it changes nothing inside.
	for i := range got {
		got[i] = nil
	}
	got = append(got[:0], want[0])
	if again := s.Objects(); !sameObjects(again, want) {
		t.Fatalf("after the caller changed its snapshot, Objects = %v", again)
	}
	by := s.BySubject(store.Cert, want[0].Subject)
	by[0] = nil
	if again := s.BySubject(store.Cert, want[0].Subject); len(again) != 1 || again[0] != want[0] {
		t.Fatal("BySubject returned a slice the store still uses")
	}
}

func testReplaceCRLs(t *testing.T, newStore func() store.Store) {
	skipWithoutReplace(t, newStore)
	f := &fixture{t: t}
	caA, caB := f.cert(f.caSpec("Example CA", "A")), f.cert(f.caSpec("Other CA", "B"))
	a1, a2, a3 := f.crl("Example CA", "A", 1), f.crl("Example CA", "A", 2), f.crl("Example CA", "A", 3)
	b1 := f.crl("Other CA", "B", 1)
	s := newStore()
	s.Add(caA, a1, caB, a2, b1)
	if n, err := s.ReplaceCRLs(caA.Subject, a3); err != nil || n != 2 {
		t.Fatalf("ReplaceCRLs(A, a3) = %d, %v; want 2 removed", n, err)
	}
	if got := s.BySubject(store.CRL, caA.Subject); len(got) != 1 || got[0] != a3 {
		t.Fatalf("CRLs of A after replace = %v, want [a3]", got)
	}
	if got := s.BySubject(store.CRL, caB.Subject); len(got) != 1 || got[0] != b1 {
		t.Fatalf("CRLs of B after replacing A's = %v, want [b1]", got)
	}
	if got := s.BySubject(store.Cert, caA.Subject); len(got) != 1 || got[0] != caA {
		t.Fatalf("certificates of A after replacing its CRLs = %v, want [caA]", got)
	}
	if n, err := s.ReplaceCRLs(caA.Subject); err != nil || n != 1 || len(s.BySubject(store.CRL, caA.Subject)) != 0 {
		t.Fatalf("ReplaceCRLs(A) = %d, %v; want 1 removed and none left", n, err)
	}
	if s.Len() != 3 {
		t.Fatalf("Len = %d, want 3", s.Len())
	}
	// Wrong arguments are refused and change nothing.
	for _, bad := range [][]*store.Object{{caA}, {b1}, {nil}} {
		if _, err := s.ReplaceCRLs(caA.Subject, bad...); err == nil {
			t.Errorf("ReplaceCRLs(A, %v) accepted", bad)
		}
	}
	if s.Len() != 3 || len(s.BySubject(store.CRL, caB.Subject)) != 1 {
		t.Fatal("a refused ReplaceCRLs changed the store")
	}
}
