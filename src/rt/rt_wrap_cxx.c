/*
 * rt_wrap_cxx.c - C++'s operator new and delete (every replaceable form:
 * plain, array, nothrow, aligned, sized), wrapped at link time like
 * rt_wrap_libc.c.
 *
 * What is counted: the program's calls of operator new, once each.  The
 * real operator new (libstdc++'s, in a shared library) calls malloc from
 * inside libstdc++, which no wrapper sees.  A program that replaces
 * operator new with its own (which may call malloc, itself wrapped) is
 * not counted twice: the re-entry guard (rt__hot.in_alloc) is raised
 * while the real function runs, and calls made meanwhile are not
 * recorded.  libstdc++'s own calls of operator new (the out-of-line
 * members of std::string and other classes it instantiates itself) are
 * not seen (docs/summary-json.md, "Heap allocations").
 *
 * Built with -fexceptions: operator new throws std::bad_alloc through
 * these frames, and the guard is lowered on the way out (cleanup).  The
 * real functions are weak references, so that a program linked against a
 * C++ library without one of them (no aligned forms) still links; a
 * wrapper is only reached when the program referred to that function.
 */
#include <stddef.h>

#include "rt_internal.h"

#define RT_WRAP __attribute__((visibility("default"))) RT_NOINSTR

static void guard_down(int *unused)
{
	(void)unused;
	rt__hot.in_alloc--;
}

#define GUARDED(call)                                                           \
	({                                                                      \
		rt__hot.in_alloc++;                                             \
		int rt_guard_ __attribute__((cleanup(guard_down), unused)) = 0; \
		call;                                                           \
	})

#define NEW(name, params, args, size)                                            \
	void *__real_##name params __attribute__((weak));                        \
	void *__wrap_##name params;                                              \
	RT_WRAP void *__wrap_##name params                                       \
	{                                                                        \
		int on = rt__alloc_active();                                     \
		void *p = on ? GUARDED(__real_##name args) : __real_##name args; \
		if (p && on)                                                     \
			rt__alloc_note(p, size, 0);                              \
		return p;                                                        \
	}

#define DELETE(name, params, args)                       \
	void __real_##name params __attribute__((weak)); \
	void __wrap_##name params;                       \
	RT_WRAP void __wrap_##name params                \
	{                                                \
		struct rt_taken t;                       \
		if (p && rt__alloc_active()) {           \
			if (rt__alloc_take(p, &t))       \
				rt__alloc_release(&t);   \
			GUARDED(__real_##name args);     \
			return;                          \
		}                                        \
		__real_##name args;                      \
	}

typedef struct nothrow_t nothrow_t; /* only passed on by reference */
typedef size_t align_val_t;         /* enum class std::align_val_t : size_t */

/* operator new(size_t), new[](size_t), and their nothrow and aligned forms */
NEW(_Znwm, (size_t n), (n), n)
NEW(_Znam, (size_t n), (n), n)
NEW(_ZnwmRKSt9nothrow_t, (size_t n, const nothrow_t *nt), (n, nt), n)
NEW(_ZnamRKSt9nothrow_t, (size_t n, const nothrow_t *nt), (n, nt), n)
NEW(_ZnwmSt11align_val_t, (size_t n, align_val_t al), (n, al), n)
NEW(_ZnamSt11align_val_t, (size_t n, align_val_t al), (n, al), n)
NEW(_ZnwmSt11align_val_tRKSt9nothrow_t, (size_t n, align_val_t al, const nothrow_t *nt), (n, al, nt), n)
NEW(_ZnamSt11align_val_tRKSt9nothrow_t, (size_t n, align_val_t al, const nothrow_t *nt), (n, al, nt), n)

/* operator delete(void *), delete[], sized, nothrow and aligned forms */
DELETE(_ZdlPv, (void *p), (p))
DELETE(_ZdaPv, (void *p), (p))
DELETE(_ZdlPvm, (void *p, size_t n), (p, n))
DELETE(_ZdaPvm, (void *p, size_t n), (p, n))
DELETE(_ZdlPvRKSt9nothrow_t, (void *p, const nothrow_t *nt), (p, nt))
DELETE(_ZdaPvRKSt9nothrow_t, (void *p, const nothrow_t *nt), (p, nt))
DELETE(_ZdlPvSt11align_val_t, (void *p, align_val_t al), (p, al))
DELETE(_ZdaPvSt11align_val_t, (void *p, align_val_t al), (p, al))
DELETE(_ZdlPvmSt11align_val_t, (void *p, size_t n, align_val_t al), (p, n, al))
DELETE(_ZdaPvmSt11align_val_t, (void *p, size_t n, align_val_t al), (p, n, al))
DELETE(_ZdlPvSt11align_val_tRKSt9nothrow_t, (void *p, align_val_t al, const nothrow_t *nt), (p, al, nt))
DELETE(_ZdaPvSt11align_val_tRKSt9nothrow_t, (void *p, align_val_t al, const nothrow_t *nt), (p, al, nt))
