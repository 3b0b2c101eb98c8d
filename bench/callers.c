/*
 * callers.c - a caller of many short calls, and the same work done in place (bench/attribution.py).
 *
 * Usage:   callers [CALLS [UNITS]]   (defaults 2000000 and 20)
 * Stdout:  "callers: calls=C x=X"
 * Exit:    0 (2 for a bad argument)
 *
 * many() calls unit() CALLS times, and unit() does UNITS steps of a linear congruential
 * generator; in_place() does the same CALLS x UNITS steps in one loop, without calls.  By
 * construction unit()'s total work equals in_place()'s, and many()'s own work is its loop only
 * (a compare, an increment and a call per call).  Traced, every unit() call also costs the
 * profiler's trampolines and clock reads, part of it inside unit()'s measured time and the rest
 * in many()'s: the times a profiler shows for many() and unit() against in_place() say how much
 * of that cost it left in them.
 *
 * Calls (debug -O0 and release -O3 alike): main 1; main > many 1; main > many > unit CALLS;
 * main > in_place 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../tests/progs/lcg_steps.h"

static NOINLINE unsigned long unit(unsigned long x, long units)
{
	return steps(x, units);
}

static NOINLINE unsigned long many(unsigned long x, long calls, long units)
{
	for (long i = 0; i < calls; i++)
		x = unit(x, units);
	return x;
}

static NOINLINE unsigned long in_place(unsigned long x, long calls, long units)
{
	return steps(x, calls * units);
}

static long arg(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "callers: bad argument '%s' (%ld..%ld)\n", s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? arg(argv[1], 1, 100000000) : 2000000;
	long units = argc > 2 ? arg(argv[2], 1, 1000000) : 20;
	unsigned long x = many(1, calls, units);
	x = in_place(x, calls, units);
	printf("callers: calls=%ld x=%lu\n", calls, x);
	return 0;
}
