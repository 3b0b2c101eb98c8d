/*
 * s-allocpeak.c - heap allocations whose lifetimes are known, so each call
 * path's peak live bytes is known: a peak that later allocations do not
 * reach again, one that is freed and then exceeded, a leak, one function
 * on two paths, and two threads on the same path.
 *
 * Usage: s-allocpeak           stdout: "peak done"   exit 0
 *
 * Every block is 1000 bytes unless said otherwise; every free is made by
 * the thread that allocated the block, so every peak is exact.  Calls are
 * followed by a compiler barrier, so no call is a tail call at -O3 and the
 * paths are the same in -debug and -release.
 *
 * Path (self)            allocs  bytes   live   peak  what
 *   main > churn             15  15000      0  10000  10 blocks, all freed,
 *                                                     then 5, all freed
 *   main > sawtooth          13  13000      0   7000  6 blocks, freed, then
 *                                                     7, freed
 *   main > leaker             3   1300    800   1000  500 + 500, the first
 *                                                     freed, then 300; 800
 *                                                     leaked
 *   main > one > hold         2   2000      0   2000  hold(2)
 *   main > two > hold         5   5000      0   5000  hold(5)
 *   worker > wchurn (1st)     3   3000      0   3000  first thread: 3 blocks
 *   worker > wchurn (2nd)     5   5000      0   5000  second thread: 5, run
 *                                                     after the first ended
 * Functions: hold 7 allocations, 7000 bytes, its paths' peaks 2000 and
 * 5000; wchurn 8, 8000, its paths' (one per thread) 3000 and 5000.  The
 * threads run one after the other, so wchurn's true combined peak is 5000
 * (the larger of its paths' peaks); run at once it could have been 8000.
 * Totals: 46 allocations, 44300 bytes, 800 live at exit.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE static __attribute__((noinline))
#define KEEP(p) __asm__ __volatile__("" : "+r"(p))
#define BARRIER() __asm__ __volatile__("" ::: "memory")

/* n blocks of 1000 bytes allocated, then all freed (inlined: not a call
 * path of its own). */
static inline __attribute__((always_inline)) void take_and_free(int n)
{
	void *b[16];
	for (int i = 0; i < n; i++) {
		b[i] = malloc(1000);
		KEEP(b[i]);
	}
	for (int i = 0; i < n; i++)
		free(b[i]);
}

NOINLINE void churn(void)
{
	take_and_free(10);
	take_and_free(5);
	BARRIER();
}

NOINLINE void sawtooth(void)
{
	take_and_free(6);
	take_and_free(7);
	BARRIER();
}

static void *leaked[2];

NOINLINE void leaker(void)
{
	void *a = malloc(500);
	KEEP(a);
	leaked[0] = malloc(500);
	KEEP(leaked[0]);
	free(a);
	leaked[1] = malloc(300);
	KEEP(leaked[1]);
	BARRIER();
}

NOINLINE void hold(int n)
{
	take_and_free(n);
	BARRIER();
}

NOINLINE void one(void)
{
	hold(2);
	BARRIER();
}

NOINLINE void two(void)
{
	hold(5);
	BARRIER();
}

NOINLINE void wchurn(int n)
{
	take_and_free(n);
	BARRIER();
}

NOINLINE void *worker(void *arg)
{
	wchurn((int)(long)arg);
	BARRIER();
	return NULL;
}

int main(void)
{
	churn();
	sawtooth();
	leaker();
	one();
	two();
	for (long n = 3; n <= 5; n += 2) {
		pthread_t t;
		if (pthread_create(&t, NULL, worker, (void *)n) != 0 || pthread_join(t, NULL) != 0)
			return 3;
	}
	printf("peak done\n");
	return 0;
}
