/*
 * s-ratio.c - two functions whose work is 3:1 by construction, and one that waits.
 *
 * Usage:   s-ratio [ROUNDS [UNITS]]   (defaults 400 and 200000)
 * Stdout:  "ratio: rounds=R x=X", then "elapsed: heavy=H light=L waiter=W" (ns, the program's own
 *          CLOCK_MONOTONIC readings around each call, summed)
 * Exit:    0 (2 for a bad argument)
 *
 * Each round calls heavy() (3 * UNITS steps of the same loop) and light() (UNITS steps), so
 * heavy's self time is three times light's however fast the machine is; every 20th round calls
 * waiter(), which sleeps 5 ms (elapsed time that is no CPU time: 20 sleeps, 100 ms, at the
 * defaults).  Tests of sampled timing compare the estimated times with the program's own clock
 * readings (on a busy machine the elapsed ratio drifts from the work ratio, both ways).
 *
 * Calls (debug -O0 and release -O3 alike): main 1; main > heavy ROUNDS; main > light ROUNDS;
 * main > waiter ROUNDS / 20.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lcg_steps.h"

/* steps() is always inlined: its time is heavy's and light's own. */
static NOINLINE unsigned long heavy(unsigned long x, long units)
{
	return steps(x, 3 * units);
}

static NOINLINE unsigned long light(unsigned long x, long units)
{
	return steps(x, units);
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static NOINLINE void waiter(void)
{
	struct timespec ts = {0, 5000000};
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 400, units = argc > 2 ? atol(argv[2]) : 200000;
	if (rounds < 1 || units < 1) {
		fprintf(stderr, "usage: s-ratio [ROUNDS [UNITS]]\n");
		return 2;
	}
	unsigned long x = 1;
	long long spent[3] = {0, 0, 0};
	for (long r = 0; r < rounds; r++) {
		long long t0 = now_ns();
		x = heavy(x, units);
		long long t1 = now_ns();
		x = light(x, units);
		long long t2 = now_ns();
		spent[0] += t1 - t0;
		spent[1] += t2 - t1;
		if (r % 20 == 0) {
			waiter();
			spent[2] += now_ns() - t2;
		}
	}
	printf("ratio: rounds=%ld x=%lu\n", rounds, x);
	printf("elapsed: heavy=%lld light=%lld waiter=%lld\n", spent[0], spent[1], spent[2]);
	return 0;
}
