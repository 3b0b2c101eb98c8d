/*
 * s-touch.c - a program whose resident memory is known: it touches MIB MiB, holds them, frees them.
 *
 * Usage:   s-touch [MIB [CALLS [HOLD_MS [BLOCK]]]]   (defaults 40 2000000 300 0)
 * Stdout:  "touched=MIB MiB calls=CALLS maxrss_kib=K" (K: its own getrusage ru_maxrss)
 * Exit:    0
 *
 * main makes CALLS calls to leaf() (so that a profiler records much), then allocates MIB MiB (one
 * block, or with BLOCK > 0 MIB MiB / BLOCK blocks of BLOCK bytes, many live heap blocks),
 * writes every page, holds them for HOLD_MS milliseconds (so that periodic samples see them),
 * frees them and makes CALLS more calls.  Its peak RSS is its baseline plus MIB MiB; without a
 * profiler, ru_maxrss (and /usr/bin/time's %M) says so.
 *
 * Calls (debug -O0 and release -O3 alike):
 *   main 1; main > leaf 2*CALLS; main > touch 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long leaf(long x)
{
	BARRIER(x);
	return x + 1;
}

static void hold(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static NOINLINE long touch(long mib, long hold_ms, long block)
{
	size_t size = (size_t)mib << 20;
	long sum = 0;
	if (block <= 0) {
		char *p = malloc(size);
		if (!p)
			return -1;
		memset(p, 1, size);
		hold(hold_ms);
		for (size_t i = 0; i < size; i += 4096)
			sum += p[i];
		free(p);
		return sum;
	}
	size_t n = size / (size_t)block;
	char **v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v[i] = malloc((size_t)block);
		if (!v[i])
			return -1;
		memset(v[i], 1, (size_t)block);
	}
	hold(hold_ms);
	for (size_t i = 0; i < n; i++) {
		sum += v[i][0];
		free(v[i]);
	}
	free(v);
	return sum;
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 40, calls = argc > 2 ? atol(argv[2]) : 2000000;
	long hold_ms = argc > 3 ? atol(argv[3]) : 300, block = argc > 4 ? atol(argv[4]) : 0, sum = 0;
	for (long i = 0; i < calls; i++)
		sum = leaf(sum);
	sum += touch(mib, hold_ms, block);
	for (long i = 0; i < calls; i++)
		sum = leaf(sum);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	BARRIER(sum);
	printf("touched=%ld MiB calls=%ld maxrss_kib=%ld\n", mib, calls, ru.ru_maxrss);
	return 0;
}
