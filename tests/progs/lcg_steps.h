/*
 * lcg_steps.h - a fixed amount of work for the programs whose time ratios are known by
 * construction (s-ratio.c, bench/callers.c).
 *
 * steps(x, n) makes n steps of a linear congruential generator, one dependent multiply-add
 * each; the empty asm barrier keeps the compiler from folding the loop into a closed form.  It
 * is always inlined, so its time is the calling function's own.
 */
#ifndef XL_LCG_STEPS_H
#define XL_LCG_STEPS_H

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static inline __attribute__((always_inline)) unsigned long steps(unsigned long x, long n)
{
	for (long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		BARRIER(x);
	}
	return x;
}

#endif
