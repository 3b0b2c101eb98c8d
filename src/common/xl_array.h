/*
 * xl_array.h - the array helpers every module needs: the number of
 * elements of an array, growing a malloc'd array and finding a key's place
 * in a sorted one.
 */
#ifndef XL_ARRAY_H
#define XL_ARRAY_H

#include <stddef.h>

/* The number of elements of an array (not of a pointer: that fails to
 * compile, where XL_ARRAY_SIZE(p) would quietly give 1 or 0). */
#define XL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + XL_MUST_BE_ARRAY(a))
/* clang-format off */
#define XL_MUST_BE_ARRAY(a) (0 * sizeof(struct { _Static_assert(XL_IS_ARRAY(a), "not an array"); int ok; }))
#define XL_IS_ARRAY(a) (!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
/* clang-format on */

/* Make *arr (*cap elements of elem bytes, malloc'd or NULL) hold at least
 * need elements, doubling.  0, or -1 when out of memory or the size would
 * overflow (*arr and *cap unchanged). */
int xl_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* In base[0..n) (elements of size bytes, sorted), the first index whose
 * element is not before key: cmp(key, element) <= 0.  n when there is none.
 * cmp may return only -1 and 1 for "upper bound" searches. */
size_t xl_lower_bound(const void *base, size_t n, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *element));

#endif
