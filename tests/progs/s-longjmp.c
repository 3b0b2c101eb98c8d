/*
 * s-longjmp.c - longjmp leaves traced frames without their exits; the
 * function that called setjmp then calls traced functions.
 *
 * Usage: s-longjmp [N]   (default 200)
 * Stdout: "jumps=<N/2 rounded up> sum=<S>", exit 0.
 *
 * For i in 0..N-1, main calls attempt(i) then after(i).  attempt sets a
 * jump buffer and calls descend(i, 3): descend recurses to depth 3
 * (descend > descend > descend) and the deepest call longjmps back to
 * attempt when i is even.  attempt then calls recover(i).  Counts (debug
 * and release):
 *   main 1; main > attempt N; main > attempt > descend N;
 *   main > attempt > descend > descend N; ... > descend > descend > descend N;
 *   main > attempt > recover ceil(N/2); main > after N.
 * Each jump leaves the 3 descend frames without exits: 3 * ceil(N/2).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static jmp_buf env;

static NOINLINE long descend(long i, int level)
{
	if (level > 1) {
		long r = descend(i, level - 1) + 1;
		__asm__ __volatile__("" : "+r"(r));
		return r;
	}
	if (i % 2 == 0)
		longjmp(env, 1);
	__asm__ __volatile__("" : "+r"(i));
	return i;
}

static NOINLINE long recover(long i)
{
	__asm__ __volatile__("" : "+r"(i));
	return -i;
}

static long jumps;

static NOINLINE long attempt(long i)
{
	if (setjmp(env)) {
		jumps++;
		return recover(i);
	}
	return descend(i, 3);
}

static NOINLINE long after(long i)
{
	__asm__ __volatile__("" : "+r"(i));
	return i + 7;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;
	long sum = 0;
	for (long i = 0; i < n; i++) {
		sum += attempt(i);
		sum += after(i);
	}
	printf("jumps=%ld sum=%ld\n", jumps, sum);
	return 0;
}
