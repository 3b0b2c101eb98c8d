/*
 * rt_clock.c - the capture clock.
 *
 * Timestamps are raw ticks: the TSC where it is invariant (constant rate,
 * not stopped in idle states, so ticks convert linearly to time), otherwise
 * CLOCK_MONOTONIC nanoseconds.  The header stores which one was used and
 * (tick, ns) calibration pairs; the analyzer does the conversion.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

RT_HIDDEN int rt__use_tsc;

RT_NOINSTR uint64_t rt__mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int tsc_invariant(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return 0;
	__get_cpuid(0x80000007u, &a, &b, &c, &d);
	return (d >> 8) & 1u; /* CPUID.80000007H:EDX[8] = invariant TSC */
#elif defined(__aarch64__)
	return 1; /* the generic timer runs at a fixed rate */
#else
	return 0;
#endif
}

void rt__clock_init(void)
{
	/* EXALOOP_CLOCK=monotonic lets tests and users force the fallback. */
	const char *force = rt__getenv("EXALOOP_CLOCK");
	rt__use_tsc = tsc_invariant() && !(force && strcmp(force, "monotonic") == 0);
}
