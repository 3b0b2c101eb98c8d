/*
 * rt_wrap_libc.c - the C allocator's functions, wrapped at link time
 * (libexaloop_alloc.a; exaloop's link adds -Wl,--wrap=malloc,... so that
 * the program's references reach __wrap_X and __real_X is libc's X).
 *
 * Only references from the objects and static archives of the link are
 * wrapped: a shared library's own calls (libc's strdup or getline,
 * libstdc++'s out-of-line code) reach libc directly and are not seen.  A
 * block such a library frees was still counted as allocated (it stays
 * live in the figures); a block the program frees that such a library
 * allocated is an unmatched free (header, rt_alloc.c).
 *
 * Each wrapper calls the real function first and records after, so the
 * program gets the allocator's exact behaviour (errno included: nothing
 * here sets it).  A free is taken out of the address table before the
 * real free, while the block is still the program's.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "rt_internal.h"

/* The runtime's test that the wrappers are linked (rt_alloc.c). */
const int rt__alloc_wrapped = 1;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_reallocarray(void *p, size_t n, size_t size) __attribute__((weak));
void __real_free(void *p);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **out, size_t align, size_t n);
void *__real_memalign(size_t align, size_t n);
void *__real_valloc(size_t n);
void *__real_pvalloc(size_t n) __attribute__((weak));
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_reallocarray(void *p, size_t n, size_t size);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **out, size_t align, size_t n);
void *__wrap_memalign(size_t align, size_t n);
void *__wrap_valloc(size_t n);
void *__wrap_pvalloc(size_t n);

#define RT_WRAP __attribute__((visibility("default"))) RT_NOINSTR

static inline void *noted(void *p, size_t n)
{
	if (p && rt__alloc_active())
		rt__alloc_note(p, n, 0);
	return p;
}

RT_WRAP void *__wrap_malloc(size_t n)
{
	return noted(__real_malloc(n), n);
}

RT_WRAP void *__wrap_calloc(size_t n, size_t size)
{
	return noted(__real_calloc(n, size), n * size); /* overflow: NULL */
}

RT_WRAP void __wrap_free(void *p)
{
	struct rt_taken t;
	if (p && rt__alloc_active() && rt__alloc_take(p, &t))
		rt__alloc_release(&t);
	__real_free(p);
}

/* A free of the old block and an allocation of the new size (realloc(p,
 * 0) frees p and may return NULL or a minimal block). */
static void *realloc_common(void *p, size_t n, void *(*re)(void *, size_t, size_t), size_t count)
{
	if (!rt__alloc_active())
		return re(p, count, n);
	struct rt_taken t;
	int had = p && rt__alloc_take(p, &t);
	void *q = re(p, count, n);
	if (!q && p && count != 0 && n != 0) {
		if (had) /* failed: the old block stays the program's */
			rt__alloc_untake(p, &t);
		return q;
	}
	if (had)
		rt__alloc_release(&t);
	return noted(q, count * n);
}

static void *re_realloc(void *p, size_t count, size_t n)
{
	(void)count;
	return __real_realloc(p, n);
}

static void *re_array(void *p, size_t count, size_t n)
{
	return __real_reallocarray(p, count, n);
}

RT_WRAP void *__wrap_realloc(void *p, size_t n)
{
	return realloc_common(p, n, re_realloc, 1);
}

RT_WRAP void *__wrap_reallocarray(void *p, size_t count, size_t n)
{
	return realloc_common(p, n, re_array, count);
}

RT_WRAP void *__wrap_aligned_alloc(size_t align, size_t n)
{
	return noted(__real_aligned_alloc(align, n), n);
}

RT_WRAP int __wrap_posix_memalign(void **out, size_t align, size_t n)
{
	int rc = __real_posix_memalign(out, align, n);
	if (rc == 0)
		noted(*out, n);
	return rc;
}

RT_WRAP void *__wrap_memalign(size_t align, size_t n)
{
	return noted(__real_memalign(align, n), n);
}

RT_WRAP void *__wrap_valloc(size_t n)
{
	return noted(__real_valloc(n), n);
}

RT_WRAP void *__wrap_pvalloc(size_t n)
{
	return noted(__real_pvalloc(n), n);
}
