/*
 * sortstats N [ROUNDS]: ROUNDS times (default 3), draw N pseudo-random
 * values (a fixed-seed generator), sort them and print the mean, median
 * and 99th percentile.  Calls per run follow from the loops:
 *   next_value    ROUNDS * N
 *   merge_sort    ROUNDS
 *   sort_range    ROUNDS * (2N - 1)
 *   merge         ROUNDS * (N - 1)
 *   mean, write_report   ROUNDS;  percentile   2 * ROUNDS
 * (At -O2 clang inlines the small static ones, next_value and merge, into
 * their callers: a profile shows their time there.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static unsigned long long state = 42;

static long next_value(void)
{
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return (long)(state >> 44);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	if (n < 1 || rounds < 1) {
		fprintf(stderr, "usage: sortstats N [ROUNDS] (N, ROUNDS >= 1)\n");
		return 2;
	}
	long *a = malloc((size_t)n * sizeof(long)), *tmp = malloc((size_t)n * sizeof(long));
	if (!a || !tmp) {
		fprintf(stderr, "sortstats: out of memory\n");
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		for (long i = 0; i < n; i++)
			a[i] = next_value();
		merge_sort(a, tmp, n);
		write_report(n, mean(a, n), percentile(a, n, 50), percentile(a, n, 99));
	}
	free(a);
	free(tmp);
	return 0;
}
