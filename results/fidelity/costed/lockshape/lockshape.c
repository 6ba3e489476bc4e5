/*
 * lockshape — 3.0.19's issuer lookup reduced to its locks: per call, a
 * pthread rwlock taken for writing twice (H1 and H2 ns of work under it),
 * and OUT ns of work outside it in SHARED pieces, each under one
 * process-wide rwlock taken for reading (none: SHARED 0). The busy work
 * is a multiply-xor loop (about 1 ns an iteration here). It tells which of
 * the real store's locks its 1 → 2-thread collapse needs.
 *
 *   gcc -O2 -o lockshape lockshape.c -lpthread
 *   ./lockshape THREADS H1 H2 OUT SHARED
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/*
 * Each lock on lines of its own: glibc's rdlock reads the lock's flags,
 * and a store lock on the shared lock's last line would bounce with every
 * piece. The parameters are only read once the threads start.
 */
static pthread_rwlock_t storeLock __attribute__((aligned(128))) = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t shared __attribute__((aligned(128))) = PTHREAD_RWLOCK_INITIALIZER;
static long h1 __attribute__((aligned(128))), h2, out, pieces;
static volatile unsigned long sink;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void burn(long n)
{
	unsigned long h = 1469598103934665603UL;

	for (long i = 0; i < n; i++)
		h = (h ^ i) * 1099511628211UL;
	if (h == 0)	/* never: a store on every call would bounce sink's line */
		sink = h;
}

static void hold(long n)
{
	pthread_rwlock_wrlock(&storeLock);
	burn(n);
	pthread_rwlock_unlock(&storeLock);
}

/* outside does k of the pieces of the outside work. */
static void outside(long k)
{
	if (pieces == 0) {
		burn(out / 2);
		return;
	}
	for (long j = 0; j < k; j++) {
		pthread_rwlock_rdlock(&shared);
		burn(out / pieces);
		pthread_rwlock_unlock(&shared);
	}
}

static void *work(void *arg)
{
	long *calls = arg, n = 0;
	double end = now() + 1;

	do {
		for (int k = 0; k < 64; k++) {
			hold(h1);
			outside(pieces / 2);
			hold(h2);
			outside(pieces - pieces / 2);
		}
		n += 64;
	} while (now() < end);
	*calls = n;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	long calls[64], total = 0;
	int threads;

	if (argc != 6 || (threads = atoi(argv[1])) < 1 || threads > 64) {
		fprintf(stderr, "usage: lockshape THREADS H1 H2 OUT SHARED\n");
		return 1;
	}
	h1 = atol(argv[2]);
	h2 = atol(argv[3]);
	out = atol(argv[4]);
	pieces = atol(argv[5]);
	for (int i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, work, &calls[i]);
	for (int i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		total += calls[i];
	}
	printf("%d threads: %.1f ns/call\n", threads, 1e9 * threads / (double)total);
	return 0;
}
