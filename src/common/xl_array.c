/*
 * xl_array.c - see xl_array.h.
 */
#include <stdint.h>
#include <stdlib.h>

#include "xl_array.h"

int xl_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -1;
		ncap *= 2;
	}
	void *p = realloc(*arr, ncap * elem);
	if (p == NULL)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

size_t xl_lower_bound(const void *base, size_t n, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int larger_first(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x < y) - (x > y);
}

static void swap64(int64_t *a, int64_t *b)
{
	int64_t t = *a;
	*a = *b;
	*b = t;
}

/* Hoare's partition around the median of three, larger values first: on
 * return v[lo..j] >= pivot >= v[j+1..hi].  Equal values (many, in call
 * durations) stop both scans, so they split evenly between the sides. */
static size_t partition_desc(int64_t *v, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	if (v[mid] > v[lo])
		swap64(&v[mid], &v[lo]);
	if (v[hi] > v[lo])
		swap64(&v[hi], &v[lo]);
	if (v[hi] > v[mid])
		swap64(&v[hi], &v[mid]);
	int64_t pivot = v[mid];
	size_t i = lo - 1, j = hi + 1;
	for (;;) {
		do
			i++;
		while (v[i] > pivot);
		do
			j--;
		while (v[j] < pivot);
		if (i >= j)
			return j;
		swap64(&v[i], &v[j]);
	}
}

int64_t xl_kth_largest(int64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	/* Past 2 log2(n) rounds the input defeats the pivots: sort what is
	 * left, which bounds the whole at n log n. */
	unsigned budget = 2;
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	while (lo < hi) {
		if (budget-- == 0) {
			qsort(v + lo, hi - lo + 1, sizeof(*v), larger_first);
			break;
		}
		size_t j = partition_desc(v, lo, hi);
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return v[k];
}
