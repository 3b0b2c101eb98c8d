/*
 * rt_arch_x86_64.c - x86-64 parts of the runtime that are not inline
 * (rt_arch_x86_64.h): the TSC's invariance, and the vector state of a
 * thread's first event.
 *
 * A thread's first event calls into libc: registration (prctl,
 * pthread_setspecific) and, in a forked child, the child's capture
 * (rt_init.c: snprintf, mkdir, mmap, dl_iterate_phdr, memcmp).  libc's
 * string functions use AVX where the CPU has it and end with vzeroupper,
 * which clears the upper halves of ymm0-15 and zmm0-15; the trampolines'
 * full path keeps xmm0-15 only, and a traced function's 256- or 512-bit
 * arguments or return value live there (the trampoline contract,
 * docs/architecture.md).  So the first event keeps the vector state with
 * XSAVE around that work: once per thread, cheap beside its syscalls.
 */
#include <cpuid.h>

#include "rt_internal.h"

#define XSTATE_SSE 0x2u     /* xmm0-15, MXCSR */
#define XSTATE_AVX 0x4u     /* upper halves of ymm0-15 */
#define XSTATE_AVX512 0xe0u /* opmask, upper halves of zmm0-15, zmm16-31 */
#define XSTATE_HEADER 512u  /* XSAVE header: XSAVE writes XSTATE_BV only */

int rt__arch_counter_invariant(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return 0;
	__get_cpuid(0x80000007u, &a, &b, &c, &d);
	return (d >> 8) & 1u; /* CPUID.80000007H:EDX[8] = invariant TSC */
}

/* The components to keep, or 0 without AVX (libc then uses SSE only,
 * whose registers the trampolines keep) or when the layout does not fit
 * the area.  Computed at the first call; a race computes it twice alike. */
static __attribute__((target("xsave"))) RT_NOINSTR uint64_t xstate_mask(void)
{
	static _Atomic uint64_t cached = UINT64_MAX;
	uint64_t m = atomic_load_explicit(&cached, memory_order_relaxed);
	if (m != UINT64_MAX)
		return m;
	unsigned a, b, c, d;
	m = 0;
	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE)) {
		m = __builtin_ia32_xgetbv(0) & (XSTATE_SSE | XSTATE_AVX | XSTATE_AVX512);
		if (!(m & XSTATE_AVX))
			m = 0;
		for (unsigned i = 2; i < 8; i++) {
			if (!(m >> i & 1))
				continue;
			__cpuid_count(0xd, i, a, b, c, d); /* a: size, b: offset */
			if ((uint64_t)a + b > RT_XSTATE_AREA)
				m = 0;
		}
	}
	atomic_store_explicit(&cached, m, memory_order_relaxed);
	return m;
}

/* No library call before the XSAVE: memset may be the AVX one. */
__attribute__((target("xsave"))) RT_NOINSTR void rt__arch_vstate_save(struct rt_arch_vstate *x)
{
	x->mask = xstate_mask();
	if (!x->mask)
		return;
	volatile uint64_t *hdr = (volatile uint64_t *)(void *)(x->area + XSTATE_HEADER);
	for (unsigned i = 0; i < 8; i++)
		hdr[i] = 0;
	__builtin_ia32_xsave64(x->area, (long long)x->mask);
}

__attribute__((target("xsave"))) RT_NOINSTR void rt__arch_vstate_restore(const struct rt_arch_vstate *x)
{
	if (x->mask)
		__builtin_ia32_xrstor64((void *)(uintptr_t)x->area, (long long)x->mask);
}
