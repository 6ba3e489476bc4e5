//go:build openssl

// Package openssl is the real X509_STORE of the linked libcrypto behind
// the Store contract, so that the models stand beside the store they
// model, in the same harness, on the same corpus.
//
// Locking is OpenSSL's own: X509_STORE_add_cert and add_crl take the
// store's lock, and so does every lookup (in 3.0 the lookup also sorts the
// object stack on first use, under that lock). IssuerBatch calls
// X509_STORE_CTX_get1_issuer for a whole batch in one cgo call (Issuer is
// a batch of one), with an X509_STORE_CTX kept per P (a sync.Pool), so a
// worker never builds one in its loop; each object's X509 or X509_CRL is
// parsed once in the process, when first added (a leaf, on its first
// lookup), never per call. OpenSSL has no removal: ReplaceCRLs returns
// store.ErrUnsupported. BySubject and Objects read the store's objects
// under its lock (X509_STORE_get1_objects from 3.3, else get0_objects
// under X509_STORE_lock) and give them in insertion order, as the contract
// asks (OpenSSL's stack is sorted by name). Every C object is freed when
// the Store is collected.
//
// Its promise: New and NewDefaultPaths return the linked library's store
// behind store.Store, passing storetest with the deviations its tests
// name; what the library does is the library's.
package openssl

/*
#cgo pkg-config: libcrypto
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// pf_x509 parses a certificate and caches its extensions
// (X509_check_purpose with -1 does only that) before any other thread can
// see it: on its first use OpenSSL caches them itself, and in 4.0.2 two
// threads doing that for one certificate at once can free what the other
// reads (openssl/openssl#32609).
static X509 *pf_x509(const unsigned char *der, long len) {
	const unsigned char *p = der;
	X509 *x = d2i_X509(NULL, &p, len);
	if (x != NULL)
		X509_check_purpose(x, -1, 0);
	return x;
}

static X509_CRL *pf_crl(const unsigned char *der, long len) {
	const unsigned char *p = der;
	return d2i_X509_CRL(NULL, &p, len);
}

// pf_ctx makes a context on s for issuer lookups; it holds a reference to s.
static X509_STORE_CTX *pf_ctx(X509_STORE *s) {
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	if (ctx == NULL)
		return NULL;
	if (!X509_STORE_CTX_init(ctx, s, NULL, NULL) || !X509_STORE_up_ref(s)) {
		X509_STORE_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

static void pf_ctx_free(X509_STORE_CTX *ctx) {
	X509_STORE *s = X509_STORE_CTX_get0_store(ctx);
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(s);
}

// pf_issuers looks up the issuers the store picks for n certificates at
// time t, one X509_STORE_CTX_get1_issuer each, in one call from Go. out[i]
// is the issuer or NULL (also for a NULL certificate: one the library
// could not parse); no reference is kept: the store keeps its own, and it
// never removes an object.
static void pf_issuers(X509_STORE_CTX *ctx, void **xs, int n, time_t t, void **out) {
	int i;
	X509_STORE_CTX_set_time(ctx, 0, t);
	for (i = 0; i < n; i++) {
		X509 *issuer = NULL;
		if (xs[i] == NULL || X509_STORE_CTX_get1_issuer(&issuer, ctx, (X509 *)xs[i]) <= 0)
			issuer = NULL;
		out[i] = issuer;
		X509_free(issuer);
	}
}

// pf_objects copies up to max of the store's object pointers under its
// lock and returns how many it holds, or -1.
static int pf_objects(X509_STORE *s, void **ptrs, int max) {
	int i, n;
	STACK_OF(X509_OBJECT) *objs;

#if OPENSSL_VERSION_NUMBER >= 0x30300000L
	// 3.3 and later: a copy taken under the store's lock.
	objs = X509_STORE_get1_objects(s);
	if (objs == NULL)
		return -1;
#else
	if (!X509_STORE_lock(s))
		return -1;
	objs = X509_STORE_get0_objects(s);
#endif
	n = sk_X509_OBJECT_num(objs);
	for (i = 0; i < n && i < max; i++) {
		X509_OBJECT *o = sk_X509_OBJECT_value(objs, i);
		if (X509_OBJECT_get_type(o) == X509_LU_X509)
			ptrs[i] = X509_OBJECT_get0_X509(o);
		else
			ptrs[i] = X509_OBJECT_get0_X509_CRL(o);
	}
#if OPENSSL_VERSION_NUMBER >= 0x30300000L
	// The store keeps its own references: the pointers stay valid.
	sk_X509_OBJECT_pop_free(objs, X509_OBJECT_free);
#else
	X509_STORE_unlock(s);
#endif
	return n;
}

// pf_certs fills ptrs with up to max of the certificates the store lists
// under x's subject (X509_STORE_CTX_get1_certs), in its order, and returns
// how many it listed, or -1.
static int pf_certs(X509_STORE_CTX *ctx, X509 *x, void **ptrs, int max) {
	int i, n;
	STACK_OF(X509) *sk = X509_STORE_CTX_get1_certs(ctx, X509_get_subject_name(x));
	if (sk == NULL)
		return -1;
	n = sk_X509_num(sk);
	for (i = 0; i < n && i < max; i++)
		ptrs[i] = sk_X509_value(sk, i);
	// The store keeps its own references: the pointers stay valid.
	sk_X509_pop_free(sk, X509_free);
	return n;
}

// pf_default_paths gives s the lookups X509_STORE_set_default_paths adds
// (a file, a hashed directory and a URI store, from SSL_CERT_FILE,
// SSL_CERT_DIR and SSL_CERT_URI or their defaults), as perftools'
// x509storeissuer sets its store up: a miss in the store's own objects
// then asks each of them.
static int pf_default_paths(X509_STORE *s) { return X509_STORE_set_default_paths(s); }

static const char *pf_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

// pf_default_file and pf_default_dir are where X509_STORE_set_default_paths
// reads: the environment variable if set, else the library's default.
static const char *pf_default_file(void) {
	const char *e = getenv(X509_get_default_cert_file_env());
	return e != NULL ? e : X509_get_default_cert_file();
}
static const char *pf_default_dir(void) {
	const char *e = getenv(X509_get_default_cert_dir_env());
	return e != NULL ? e : X509_get_default_cert_dir();
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/perfrun/perfrun/store"
)

// Version is the linked library's OpenSSL_version(OPENSSL_VERSION), such as
// "OpenSSL 3.0.19 27 Jan 2026".
func Version() string { return C.GoString(C.pf_version()) }

// DefaultPaths says where a NewDefaultPaths store reads its default file
// and hashed directory, from this process's environment or the library's
// defaults. A file there holding a bundle of CAs puts them all in the
// store beside the corpus, so results name it: a tool run with another
// file times a different store.
func DefaultPaths() string {
	return fmt.Sprintf("default file %s, directory %s", C.GoString(C.pf_default_file()), C.GoString(C.pf_default_dir()))
}

// Store is a real X509_STORE.
type Store struct {
	st    *C.X509_STORE // freed by the Store's cleanup; each context holds a reference too
	mu    sync.Mutex    // serializes writers; Objects holds it to read seq
	byPtr sync.Map      // unsafe.Pointer (X509* or X509_CRL*) -> *store.Object
	seq   map[*store.Object]int
	seen  map[[32]byte]bool
	n     atomic.Int64
	ctxs  sync.Pool // *lookupCtx
}

// lookupCtx is a lookup context and the buffers of a batch of lookups
// (IssuerBatch), kept per P, with the P's own maps of the leaves and
// issuers it has met: plain maps read by one goroutine at a time, where
// the store's sync.Maps cost a lookup two hash-trie walks over every
// object the process parsed.
type lookupCtx struct {
	p *C.X509_STORE_CTX
	// xs and out are views of C arrays of batchMax pointers: passed to C,
	// a Go array would be walked element by element by the runtime's cgo
	// pointer check on every call — work a C caller never does, and, under
	// callgrind, most of what a lookup's count held.
	xs, out []unsafe.Pointer
	leaves  map[*store.Object]unsafe.Pointer
	objs    map[unsafe.Pointer]*store.Object
}

// batchMax is the most lookups one cgo call makes; a longer batch is made
// in turns.
const batchMax = 256

// New returns an empty store.
func New() store.Store { return newStore(false) }

// NewDefaultPaths returns a store with the lookups
// X509_STORE_set_default_paths adds, read from the process's environment
// (SSL_CERT_FILE, SSL_CERT_DIR, SSL_CERT_URI) as OpenSSL's tools read it:
// the store perftools' x509storeissuer measures. Objects the default file
// holds are in the store but not in Objects.
func NewDefaultPaths() store.Store { return newStore(true) }

func newStore(defaultPaths bool) *Store {
	st := C.X509_STORE_new()
	if st == nil {
		panic("openssl: X509_STORE_new failed")
	}
	if defaultPaths && C.pf_default_paths(st) != 1 {
		panic("openssl: X509_STORE_set_default_paths failed")
	}
	s := &Store{st: st, seq: make(map[*store.Object]int), seen: make(map[[32]byte]bool)}
	s.ctxs.New = func() any {
		ctx := C.pf_ctx(s.st)
		if ctx == nil {
			panic("openssl: X509_STORE_CTX_init failed")
		}
		arrays := C.calloc(2*batchMax, C.size_t(unsafe.Sizeof(unsafe.Pointer(nil))))
		if arrays == nil {
			panic("openssl: out of memory")
		}
		both := unsafe.Slice((*unsafe.Pointer)(arrays), 2*batchMax)
		w := &lookupCtx{p: ctx, xs: both[:batchMax:batchMax], out: both[batchMax:],
			leaves: make(map[*store.Object]unsafe.Pointer), objs: make(map[unsafe.Pointer]*store.Object)}
		runtime.AddCleanup(w, func(p *C.X509_STORE_CTX) { C.pf_ctx_free(p) }, ctx)
		runtime.AddCleanup(w, func(a unsafe.Pointer) { C.free(a) }, arrays)
		return w
	}
	runtime.AddCleanup(s, func(st *C.X509_STORE) { C.X509_STORE_free(st) }, st)
	return s
}

func der(o *store.Object) (*C.uchar, C.long) {
	return (*C.uchar)(unsafe.Pointer(&o.DER[0])), C.long(len(o.DER))
}

func (s *Store) Add(objs ...*store.Object) (int, error) {
	if err := store.CheckBatch(objs); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	added := 0
	for _, o := range objs {
		if s.seen[o.Fingerprint] {
			continue
		}
		p, err := s.add(o)
		if err != nil {
			return added, err
		}
		s.seen[o.Fingerprint] = true
		s.seq[o] = len(s.seq)
		s.byPtr.Store(p, o)
		s.n.Add(1)
		added++
	}
	return added, nil
}

// parsed holds each object's X509 or X509_CRL, parsed on its first Add in
// the process and kept: a real server parses a certificate once and adds
// the X509, so the load workload times X509_STORE_add_cert, not d2i.
// Corpora live as long as the process, and so does this.
var parsed sync.Map // *store.Object -> unsafe.Pointer

// object returns o's parsed X509 or X509_CRL.
func object(o *store.Object) (unsafe.Pointer, error) {
	if p, ok := parsed.Load(o); ok {
		return p.(unsafe.Pointer), nil
	}
	d, n := der(o)
	var p unsafe.Pointer
	if o.Kind == store.Cert {
		p = unsafe.Pointer(C.pf_x509(d, n))
	} else {
		p = unsafe.Pointer(C.pf_crl(d, n))
	}
	if p == nil {
		return nil, fmt.Errorf("openssl: d2i failed for %s", o)
	}
	if prev, loaded := parsed.LoadOrStore(o, p); loaded {
		if o.Kind == store.Cert {
			C.X509_free((*C.X509)(p))
		} else {
			C.X509_CRL_free((*C.X509_CRL)(p))
		}
		return prev.(unsafe.Pointer), nil
	}
	return p, nil
}

// add adds o's parsed object to the store, which takes a reference of its
// own.
func (s *Store) add(o *store.Object) (unsafe.Pointer, error) {
	p, err := object(o)
	if err != nil {
		return nil, err
	}
	if o.Kind == store.Cert {
		if C.X509_STORE_add_cert(s.st, (*C.X509)(p)) != 1 {
			return nil, fmt.Errorf("openssl: X509_STORE_add_cert failed for %s", o)
		}
	} else if C.X509_STORE_add_crl(s.st, (*C.X509_CRL)(p)) != 1 {
		return nil, fmt.Errorf("openssl: X509_STORE_add_crl failed for %s", o)
	}
	return p, nil
}

// ReplaceCRLs is not in OpenSSL's API: an X509_STORE never removes.
func (s *Store) ReplaceCRLs(issuer store.Name, crls ...*store.Object) (int, error) {
	return 0, fmt.Errorf("openssl: ReplaceCRLs: X509_STORE cannot remove a CRL: %w", store.ErrUnsupported)
}

// leaf returns the X509 of a certificate looked up (parsed once in the
// process, as the objects added are).
func (s *Store) leaf(cert *store.Object) *C.X509 {
	p, err := object(cert)
	if err != nil {
		return nil
	}
	return (*C.X509)(p)
}

func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	var out [1]*store.Object
	s.IssuerBatch([]*store.Object{cert}, at, out[:])
	return out[0], out[0] != nil
}

// IssuerBatch is Issuer for a batch, in one cgo call: a lookup of a
// microsecond or more, made one call at a time, lets Go's scheduler take
// the worker's P away mid-call and hand it back through futexes, a large
// share of such a lookup (results/fidelity/x509storeissuer/README.md).
func (s *Store) IssuerBatch(certs []*store.Object, at time.Time, out []*store.Object) {
	w := s.ctxs.Get().(*lookupCtx)
	defer s.ctxs.Put(w)
	for len(certs) > 0 {
		n := min(len(certs), batchMax)
		s.issuers(w, certs[:n], at, out[:n])
		certs, out = certs[n:], out[n:]
	}
}

// issuers looks up at most batchMax certificates in one cgo call.
func (s *Store) issuers(w *lookupCtx, certs []*store.Object, at time.Time, out []*store.Object) {
	xs, got := w.xs[:len(certs)], w.out[:len(certs)]
	for i, c := range certs {
		x, ok := w.leaves[c]
		if !ok {
			x = unsafe.Pointer(s.leaf(c)) // nil for one the library cannot parse: no issuer
			w.leaves[c] = x
		}
		xs[i] = x
	}
	C.pf_issuers(w.p, unsafe.SliceData(xs), C.int(len(xs)), C.time_t(at.Unix()), unsafe.SliceData(got))
	for i, p := range got {
		out[i] = nil
		if p == nil {
			continue
		}
		o, ok := w.objs[p]
		if !ok {
			// An object the store returned stays in it: OpenSSL never
			// removes one, so a pointer once mapped keeps its object.
			if v, found := s.byPtr.Load(p); found {
				o = v.(*store.Object)
				w.objs[p] = o
			}
		}
		out[i] = o
	}
}

func (s *Store) BySubject(kind store.Kind, name store.Name) []*store.Object {
	var out []*store.Object
	for _, o := range s.Objects() {
		if o.Kind == kind && o.Subject == name {
			out = append(out, o)
		}
	}
	return out
}

func (s *Store) Objects() []*store.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.libraryObjects()
	slices.SortFunc(out, func(a, b *store.Object) int { return s.seq[a] - s.seq[b] })
	return out
}

func (s *Store) Len() int { return int(s.n.Load()) }

// LibraryOrder returns the stored objects in the order the library keeps
// them (X509_STORE_get1_objects, or get0_objects under the lock before
// 3.3): the order Objects puts back into insertion order. It is how a
// version's store is laid out — 3.0 appends and sorts on its next lookup,
// 4.0 lists its hash table — and what the conformance deviations test.
func (s *Store) LibraryOrder() []*store.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.libraryObjects()
}

// libraryObjects reads the store's objects in the library's order; s.mu
// is held, so no writer changes their count.
func (s *Store) libraryObjects() []*store.Object {
	// One spare slot keeps the array non-empty.
	ptrs := make([]unsafe.Pointer, s.n.Load()+1)
	n := int(C.pf_objects(s.st, unsafe.SliceData(ptrs), C.int(len(ptrs))))
	if n > len(ptrs) {
		// The default paths' file put objects of its own in the store:
		// read again with room for them.
		ptrs = make([]unsafe.Pointer, n)
		n = int(C.pf_objects(s.st, unsafe.SliceData(ptrs), C.int(len(ptrs))))
	}
	return s.objectsAt(ptrs, n)
}

// CertsBySubject returns the certificates the library lists under cert's
// subject (X509_STORE_CTX_get1_certs), in its order; cert must be in the
// store.
func (s *Store) CertsBySubject(cert *store.Object) ([]*store.Object, error) {
	p, err := object(cert)
	if err != nil || cert.Kind != store.Cert {
		return nil, fmt.Errorf("openssl: %s is not a certificate this store parsed", cert)
	}
	ctx := s.ctxs.Get().(*lookupCtx)
	defer s.ctxs.Put(ctx)
	ptrs := make([]unsafe.Pointer, s.n.Load()+1)
	n := int(C.pf_certs(ctx.p, (*C.X509)(p), unsafe.SliceData(ptrs), C.int(len(ptrs))))
	if n < 0 {
		return nil, fmt.Errorf("openssl: X509_STORE_CTX_get1_certs failed")
	}
	return s.objectsAt(ptrs, n), nil
}

// objectsAt maps the first n of the library's pointers to their objects.
func (s *Store) objectsAt(ptrs []unsafe.Pointer, n int) []*store.Object {
	out := make([]*store.Object, 0, max(n, 0))
	for _, p := range ptrs[:max(min(n, len(ptrs)), 0)] {
		if o, ok := s.byPtr.Load(p); ok {
			out = append(out, o.(*store.Object))
		}
	}
	return out
}
