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
