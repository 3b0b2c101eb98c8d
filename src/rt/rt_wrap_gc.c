/*
 * rt_wrap_gc.c - Boehm GC's allocation functions, wrapped at link time
 * like rt_wrap_libc.c.
 *
 * A collector's allocation counts like any other (count and bytes on the
 * current call path) and its bytes also as gc_bytes: the collector frees
 * them without a call the runtime could see, so they never count as live
 * (xl_capture.h).  GC_free is counted (header gc_frees).  The real
 * functions are weak references: a wrapper is only reached when the
 * program referred to that function, and a libgc without one still
 * links.  The re-entry guard is raised while the real function runs (a
 * static libgc's internal calls would be wrapped too).
 */
#include <stddef.h>

#include "rt_internal.h"

#define RT_WRAP __attribute__((visibility("default"))) RT_NOINSTR

#define GC_ALLOC(name, params, args, size)                \
	void *__real_##name params __attribute__((weak)); \
	void *__wrap_##name params;                       \
	RT_WRAP void *__wrap_##name params                \
	{                                                 \
		if (!rt__alloc_active())                  \
			return __real_##name args;        \
		rt__hot.in_alloc++;                       \
		void *p = __real_##name args;             \
		rt__hot.in_alloc--;                       \
		if (p)                                    \
			rt__alloc_note(p, size, 1);       \
		return p;                                 \
	}

GC_ALLOC(GC_malloc, (size_t n), (n), n)
GC_ALLOC(GC_malloc_atomic, (size_t n), (n), n)
GC_ALLOC(GC_malloc_uncollectable, (size_t n), (n), n)
GC_ALLOC(GC_malloc_atomic_uncollectable, (size_t n), (n), n)
GC_ALLOC(GC_malloc_ignore_off_page, (size_t n), (n), n)
GC_ALLOC(GC_malloc_atomic_ignore_off_page, (size_t n), (n), n)
GC_ALLOC(GC_memalign, (size_t al, size_t n), (al, n), n)
GC_ALLOC(GC_realloc, (void *old, size_t n), (old, n), n)

void __real_GC_free(void *p) __attribute__((weak));
void __wrap_GC_free(void *p);
RT_WRAP void __wrap_GC_free(void *p)
{
	if (p && rt__alloc_active())
		rt__alloc_gc_free();
	__real_GC_free(p);
}
