/*
 * s-alloc.c - heap allocations of known sizes on known call paths, a known
 * leak and a block freed by another thread.
 *
 * Usage: s-alloc           stdout: "allocs done 42"   exit 0
 *
 * Calls: main 1; main > alpha 1; main > alpha > alloc_n 1; main > beta 1;
 * main > beta > alloc_n 1; main > grow 1; main > leaky 1;
 * main > leaky > leak_inner 1; main > spawn 1; worker 1 (its own thread).
 * Release (-O3): alpha, beta and leaky end in tail calls, so alloc_n and
 * leak_inner are on main's paths (main > alloc_n 2, main > leak_inner 1).
 *
 * Allocations (calls, bytes) by path, all through the malloc family:
 *   main > alpha > alloc_n   3 malloc(40)                  3   120
 *   main > beta > alloc_n    2 malloc(40)                  2    80
 *   main > grow              malloc(16), realloc to 32,
 *                            64, 128, then free            4   240
 *   main > leaky > leak_inner calloc(5, 100), aligned_alloc
 *                            (64, 256), posix_memalign
 *                            (32, 48); frees the 256       3   804
 *   worker (thread)          7 malloc(10)                  7    70
 *   main                     malloc(1000), freed           1  1000
 * Frees: alloc_n's five blocks are freed by main (same thread: frees of
 * alloc_n's records, 3/120 and 2/80); grow's realloc frees 3 blocks
 * (16+32+64) and its free the last (128): 4 frees, 240 bytes; leak_inner
 * frees 256 and leaks 500 + 48 = 548 bytes; worker's 7 blocks are freed by
 * main after the join (another thread: xfrees 7, 70 bytes); main's own
 * block is freed.  Totals: 20 allocations, 2314 bytes, 548 live at exit.
 * Peak live bytes: main > grow 128 (a realloc counts as the old block's
 * free, then the new one's allocation), main > leaky > leak_inner 756
 * (500 + 256 before the free), the others their bytes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE static __attribute__((noinline))
#define KEEP(p) __asm__ __volatile__("" : "+r"(p))

static void *kept[16];
static int nkept;

NOINLINE void alloc_n(int n)
{
	for (int i = 0; i < n; i++) {
		void *p = malloc(40);
		KEEP(p);
		kept[nkept++] = p;
	}
}

NOINLINE void alpha(void)
{
	alloc_n(3);
}

NOINLINE void beta(void)
{
	alloc_n(2);
}

NOINLINE void grow(void)
{
	char *p = malloc(16);
	for (size_t n = 32; n <= 128; n *= 2) {
		p = realloc(p, n);
		KEEP(p);
	}
	free(p);
}

static void *leaked[2];

NOINLINE void leak_inner(void)
{
	leaked[0] = calloc(5, 100);
	void *a = aligned_alloc(64, 256);
	KEEP(a);
	free(a);
	if (posix_memalign(&leaked[1], 32, 48) != 0)
		exit(2);
}

NOINLINE void leaky(void)
{
	leak_inner();
}

static void *wblocks[7];

NOINLINE void *worker(void *arg)
{
	for (int i = 0; i < 7; i++) {
		wblocks[i] = malloc(10);
		KEEP(wblocks[i]);
	}
	return arg;
}

NOINLINE void spawn(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
		exit(3);
}

int main(void)
{
	void *big = malloc(1000);
	KEEP(big);
	alpha();
	beta();
	grow();
	leaky();
	spawn();
	for (int i = 0; i < nkept; i++)
		free(kept[i]);
	for (int i = 0; i < 7; i++)
		free(wblocks[i]);
	free(big);
	printf("allocs done %d\n", 42);
	return 0;
}
