/*
 * issuerdrv — X509_STORE_CTX_get1_issuer from plain pthreads: the real
 * store under perfrun's issuer workload with no Go, no cgo and no harness
 * in the process, run by perfrun as a command cell (-exec) beside its own
 * openssl cell, so that what the harness adds to real C code is measured
 * rather than assumed.
 *
 *   issuerdrv CORPUSDIR THREADS [SECONDS [AT]]
 *
 * It loads CORPUSDIR/objects.pem into a plain X509_STORE (no default
 * paths), reads every leaf of CORPUSDIR/leaves.pem, and runs THREADS
 * threads for SECONDS (default 1) of lookups, each thread with its own
 * X509_STORE_CTX and its own place in the leaves (spread as perfrun
 * spreads its workers), at AT (Unix seconds: perfrun's {at}, the
 * corpus's verification time, which is what perfrun's own lookups use;
 * the current time if left out). Each answer is checked against the leaf's issuer name:
 * a lookup that finds none or a wrong one exits 3. Every leaf is looked up
 * once before the threads start, as perfrun's warm-up does: OpenSSL
 * caches a certificate's extensions on its first use, and in 4.0.2 two
 * threads doing that for one certificate at once can free what the other
 * reads (openssl/openssl#32609). It prints the time one
 * call took on one thread (threads × seconds ÷ calls) in µs, perfrun's
 * command contract.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

enum { batch = 64, maxThreads = 256 };

static X509_STORE *store;
static X509 **leaves;
static int nleaves;
static double seconds = 1;
static time_t at;
static pthread_barrier_t ready;

struct worker {
	int first;
	long calls;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// lookup finds x's issuer and checks it, or exits.
static void lookup(X509_STORE_CTX *ctx, X509 *x, int i)
{
	X509 *issuer = NULL;

	if (X509_STORE_CTX_get1_issuer(&issuer, ctx, x) != 1
	    || X509_NAME_cmp(X509_get_subject_name(issuer), X509_get_issuer_name(x)) != 0) {
		fprintf(stderr, "issuerdrv: no issuer, or a wrong one, for leaf %d\n", i);
		exit(3);
	}
	X509_free(issuer);
}

static X509_STORE_CTX *newCtx(void)
{
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();

	if (ctx == NULL || !X509_STORE_CTX_init(ctx, store, NULL, NULL)) {
		fprintf(stderr, "issuerdrv: X509_STORE_CTX_init failed\n");
		exit(2);
	}
	X509_STORE_CTX_set_time(ctx, 0, at);
	return ctx;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	X509_STORE_CTX *ctx = newCtx();
	int i = w->first, k;
	double end;

	pthread_barrier_wait(&ready);
	end = now() + seconds;
	do {
		for (k = 0; k < batch; k++) {
			lookup(ctx, leaves[i], i);
			if (++i == nleaves)
				i = 0;
		}
		w->calls += batch;
	} while (now() < end);
	X509_STORE_CTX_free(ctx);
	return NULL;
}

static void readLeaves(const char *path)
{
	FILE *f = fopen(path, "r");
	X509 *x;
	int cap = 0;

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	while ((x = PEM_read_X509(f, NULL, NULL, NULL)) != NULL) {
		if (nleaves == cap) {
			cap = cap ? 2 * cap : 64;
			leaves = realloc(leaves, cap * sizeof(*leaves));
			if (leaves == NULL)
				exit(1);
		}
		leaves[nleaves++] = x;
	}
	fclose(f);
	if (nleaves == 0) {
		fprintf(stderr, "issuerdrv: %s holds no certificate\n", path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static pthread_t tid[maxThreads];
	static struct worker ws[maxThreads];
	char path[4096];
	X509_STORE_CTX *ctx;
	long calls = 0;
	int threads, t;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: issuerdrv CORPUSDIR THREADS [SECONDS [AT]]\n");
		return 1;
	}
	threads = atoi(argv[2]);
	if (argc >= 4)
		seconds = atof(argv[3]);
	at = argc == 5 ? (time_t)atoll(argv[4]) : time(NULL);
	if (threads < 1 || threads > maxThreads || !(seconds > 0)) {
		fprintf(stderr, "issuerdrv: want 1-%d threads and a positive time\n", maxThreads);
		return 1;
	}
	store = X509_STORE_new();
	snprintf(path, sizeof(path), "%s/objects.pem", argv[1]);
	if (store == NULL || X509_STORE_load_file(store, path) != 1) {
		fprintf(stderr, "issuerdrv: cannot load %s\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/leaves.pem", argv[1]);
	readLeaves(path);
	ctx = newCtx();
	for (t = 0; t < nleaves; t++)
		lookup(ctx, leaves[t], t);
	X509_STORE_CTX_free(ctx);
	pthread_barrier_init(&ready, NULL, threads);
	for (t = 0; t < threads; t++) {
		ws[t].first = (int)((t * 389L) % nleaves);
		if (pthread_create(&tid[t], NULL, work, &ws[t]) != 0) {
			fprintf(stderr, "issuerdrv: pthread_create failed\n");
			return 1;
		}
	}
	for (t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		calls += ws[t].calls;
	}
	printf("%d threads, %ld calls: %.3f us\n", threads, calls, seconds * 1e6 * threads / calls);
	return 0;
}
