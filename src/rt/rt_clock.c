/*
 * rt_clock.c - the capture clock.
 *
 * Timestamps are raw ticks: the cycle counter where it is invariant (the
 * TSC on x86-64, the generic timer on AArch64: rt_arch.h; constant rate,
 * not stopped in idle states, so ticks convert linearly to time), otherwise
 * CLOCK_MONOTONIC nanoseconds.  The header stores which one was used and
 * (tick, ns) calibration pairs; the analyzer does the conversion.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_internal.h"

RT_HIDDEN int rt__use_tsc;

RT_NOINSTR uint64_t rt__mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rt__clock_init(void)
{
	/* EXALOOP_CLOCK=monotonic lets tests and users force the fallback. */
	const char *force = rt__getenv("EXALOOP_CLOCK");
	rt__use_tsc = rt__arch_counter_invariant() && !(force && strcmp(force, "monotonic") == 0);
}
