/* Summary statistics over a sorted sample. */
#include "stats.h"

double mean(const long *a, long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)a[i];
	return n ? s / (double)n : 0;
}

long percentile(const long *sorted, long n, int pct)
{
	long i = (long)pct * (n - 1) / 100;
	return n ? sorted[i] : 0;
}
