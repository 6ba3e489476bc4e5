//go:build openssl && perfrun_locks

package openssl

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <valgrind/callgrind.h>

// libcrypto's locks (CRYPTO_THREAD_read_lock, write_lock, unlock) are
// pthread read/write locks. This binary defines the pthread calls
// libcrypto makes, so the dynamic linker binds libcrypto's calls here;
// each counts or switches callgrind's collection, then calls the C
// library's own. Only a profile's one thread reaches the counting: the
// state below is plain.

enum { pf_max_locks = 16, pf_max_held = 32 };

typedef struct { uintptr_t addr; long long excl, shared; } pf_lock;
static pf_lock pf_locks[pf_max_locks];
static int pf_nlocks;

static struct { uintptr_t addr; int shared; } pf_stack[pf_max_held];
static int pf_nheld;

static int pf_counting, pf_held, pf_shared, pf_depth;
static uintptr_t pf_target;

static void pf_pass(int counting, int held, int shared, uintptr_t target) {
	pf_counting = counting; pf_held = held; pf_shared = shared; pf_target = target; pf_depth = 0;
	if (counting) pf_nlocks = 0;
}

static int pf_nlock(void) { return pf_nlocks; }
static uintptr_t pf_lock_addr(int i) { return pf_locks[i].addr; }
static long long pf_lock_excl(int i) { return pf_locks[i].excl; }
static long long pf_lock_shared(int i) { return pf_locks[i].shared; }

static void pf_count(uintptr_t a, int shared) {
	int i = 0;
	while (i < pf_nlocks && pf_locks[i].addr != a) i++;
	if (i == pf_nlocks) {
		if (pf_nlocks == pf_max_locks) i = pf_max_locks - 1;
		else { pf_locks[i].addr = a; pf_locks[i].excl = pf_locks[i].shared = 0; pf_nlocks++; }
	}
	if (shared) pf_locks[i].shared++; else pf_locks[i].excl++;
}

static void pf_acquired(void *l, int shared) {
	uintptr_t a = (uintptr_t)l;
	if (pf_nheld < pf_max_held) { pf_stack[pf_nheld].addr = a; pf_stack[pf_nheld].shared = shared; pf_nheld++; }
	if (pf_counting) pf_count(a, shared);
	if (pf_held && shared == pf_shared && (pf_target == 0 || a == pf_target) && ++pf_depth == 1)
		CALLGRIND_TOGGLE_COLLECT;
}

static void pf_releasing(void *l) {
	uintptr_t a = (uintptr_t)l;
	int shared = -1;
	for (int i = pf_nheld - 1; i >= 0; i--) {
		if (pf_stack[i].addr == a) {
			shared = pf_stack[i].shared;
			pf_stack[i] = pf_stack[--pf_nheld];
			break;
		}
	}
	if (pf_held && shared == pf_shared && (pf_target == 0 || a == pf_target) && --pf_depth == 0)
		CALLGRIND_TOGGLE_COLLECT;
}

typedef int (*pf_fn)(pthread_rwlock_t *);
static pf_fn pf_real(const char *name) { return (pf_fn)dlsym(RTLD_NEXT, name); }

int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
	static pf_fn f; if (!f) f = pf_real("pthread_rwlock_rdlock");
	int r = f(l); if (r == 0) pf_acquired(l, 1); return r;
}
int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
	static pf_fn f; if (!f) f = pf_real("pthread_rwlock_wrlock");
	int r = f(l); if (r == 0) pf_acquired(l, 0); return r;
}
int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
	static pf_fn f; if (!f) f = pf_real("pthread_rwlock_tryrdlock");
	int r = f(l); if (r == 0) pf_acquired(l, 1); return r;
}
int pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
	static pf_fn f; if (!f) f = pf_real("pthread_rwlock_trywrlock");
	int r = f(l); if (r == 0) pf_acquired(l, 0); return r;
}
int pthread_rwlock_unlock(pthread_rwlock_t *l) {
	static pf_fn f; if (!f) f = pf_real("pthread_rwlock_unlock");
	pf_releasing(l); return f(l);
}

// pf_empty runs n empty critical sections of a lock of its own, so the
// profile can take off what the counting adds inside a held region.
static void pf_empty(int shared, int n) {
	static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
	for (int i = 0; i < n; i++) {
		if (shared) pthread_rwlock_rdlock(&l); else pthread_rwlock_wrlock(&l);
		pthread_rwlock_unlock(&l);
	}
}
*/
import "C"

import "github.com/perfrun/perfrun/harness/locks"

// libcryptoLocks is the real store's locks as a source of lock profiles:
// the pthread read/write locks libcrypto takes, counted in C beside the
// calls.
type libcryptoLocks struct{}

func init() { locks.Register(libcryptoLocks{}) }

func (libcryptoLocks) Pass(p locks.Pass) {
	C.pf_pass(cbool(p.Counting), cbool(p.Held), cbool(p.Shared), C.uintptr_t(p.Target))
}

func (libcryptoLocks) Locks() []locks.SourceLock {
	var out []locks.SourceLock
	for i := range C.int(C.pf_nlock()) {
		out = append(out, locks.SourceLock{Addr: uintptr(C.pf_lock_addr(i)), Kind: "pthread_rwlock",
			Exclusive: int64(C.pf_lock_excl(i)), Shared: int64(C.pf_lock_shared(i))})
	}
	return out
}

func (libcryptoLocks) Empty(shared bool, n int) { C.pf_empty(cbool(shared), C.int(n)) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
