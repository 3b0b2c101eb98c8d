/* Top-down merge sort: for n elements, merge_sort runs 2n-1 times and
 * merge n-1 times (every call on a range of two or more splits it). */
#include <string.h>

#include "stats.h"

static void merge(long *a, long *tmp, long lo, long mid, long hi)
{
	long i = lo, j = mid, k = lo;
	while (i < mid && j < hi)
		tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof(long));
}

static void sort_range(long *a, long *tmp, long lo, long hi);

void merge_sort(long *a, long *tmp, long n)
{
	sort_range(a, tmp, 0, n);
}

static void sort_range(long *a, long *tmp, long lo, long hi)
{
	if (hi - lo < 2)
		return;
	long mid = lo + (hi - lo) / 2;
	sort_range(a, tmp, lo, mid);
	sort_range(a, tmp, mid, hi);
	merge(a, tmp, lo, mid, hi);
}
