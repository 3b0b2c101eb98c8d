/*
 * rt_calib.c - measure what one traced call costs, so the report can say
 * "measured" instead of quoting a typical figure.
 *
 * At finalization, while the window is still open, the finalizing thread
 * (the control thread, or the main thread at exit) swaps its TLS hot state
 * for a scratch one (rt__scratch_enter: a private thread block, tree and
 * timeline, nothing in the capture file), calls the entry and exit
 * trampolines the sleds use exactly as a patched sled would, CAL_CALLS
 * times per round, and keeps the fastest of CAL_ROUNDS rounds.  The result
 * goes to the header as (cal_calls, cal_ticks); the analyzer converts it
 * with the capture's clock calibration.
 *
 * What it measures: trampolines + handler + two TSC reads per call, in a
 * tight loop.  In a program the TSC read also waits for the program's
 * own work in flight, so this is close to the cost in call-heavy integer
 * code (bench/: fib 37 ns) and below it in floating-point-heavy code
 * (loans 56 ns): a floor, not a bound.
 *
 * Only with the cycle-counter clock (the clock_gettime fallback takes
 * another path); the trampolines are called through each architecture's
 * inline assembly (RT_ARCH_CALL_ENTRY/EXIT, rt_arch.h).
 * The references to the trampolines are weak: a build without XRay has
 * none and nothing is measured.  With exaloop's trampolines the linker's
 * --wrap turns these references into the __wrap___xray_* ones, as it does
 * for the sleds, so whatever the sleds call is what is measured.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "rt_internal.h"

#define CAL_CALLS (XL_EVENTS_PER_CHUNK / 2) /* per round: one scratch timeline block */
#define CAL_ROUNDS 20u
#define CAL_FUNC 1 /* any id: the scratch tree has its own nodes */

extern void __xray_FunctionEntry(void) __attribute__((weak));
extern void __xray_FunctionExit(void) __attribute__((weak));

static void __attribute__((noinline)) one_round(void (*entry)(void), void (*exit)(void))
{
	int32_t id = CAL_FUNC;
	for (unsigned i = 0; i < CAL_CALLS; i++) {
		RT_ARCH_CALL_ENTRY(entry, id); /* rt_arch.h */
		RT_ARCH_CALL_EXIT(exit, id);
	}
}

void rt__calibrate(void)
{
	void (*entry)(void) = __xray_FunctionEntry;
	void (*exit)(void) = __xray_FunctionExit;
	if (!entry || !exit || !rt__use_tsc || rt__cfg.mode == XL_MODE_MEMORY ||
	    !atomic_load_explicit(&rt__on, memory_order_relaxed))
		return;
	rt__alloc_self_begin();
	void *mem = calloc(1, rt__scratch_size(2 * CAL_CALLS));
	rt__alloc_self_end();
	if (!mem)
		return;
	/* No signal handler runs on the scratch state: its traced calls would
	 * need nodes the scratch tree does not have. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	struct rt_hot saved = rt__hot;
	rt__scratch_enter(mem, 2 * CAL_CALLS, CAL_FUNC, rt__ticks());
	uint64_t best = UINT64_MAX;
	for (unsigned r = 0; r < CAL_ROUNDS; r++) {
		rt__scratch_calls(mem); /* fresh timeline block */
		uint64_t t0 = rt__ticks();
		one_round(entry, exit);
		uint64_t t = rt__ticks() - t0;
		if (t < best)
			best = t;
	}
	/* Every call must have reached the handler's fast path; otherwise
	 * (handler replaced, thread state refused) the figure means nothing. */
	int ok = rt__scratch_calls(mem) == (uint64_t)CAL_CALLS * CAL_ROUNDS;
	rt__hot = saved;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	rt__alloc_self_begin();
	free(mem);
	rt__alloc_self_end();
	if (ok) {
		rt__hdr->cal_ticks = best;
		rt__hdr->cal_calls = CAL_CALLS;
	}
}
