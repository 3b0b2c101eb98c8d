/*
 * rt_timeline.c - the timeline's settings in ticks, for the hot path's
 * general code (rt_hot.c), which may not do this arithmetic itself
 * (it calls nothing outside rt_hot.c and rt_arena.c).
 */
#include "rt_internal.h"

/* ns into ticks with the start-up calibration (rt_init.c). */
static uint64_t ns_to_ticks(uint64_t ns)
{
	const struct xl_cap_header *h = rt__hdr;
	if (h->clock != XL_CLOCK_TSC || h->cal1_ns <= h->cal0_ns || h->cal1_ticks <= h->cal0_ticks)
		return ns;
	double t = (double)ns * (double)(h->cal1_ticks - h->cal0_ticks) / (double)(h->cal1_ns - h->cal0_ns);
	return t >= 1.8e19 ? UINT64_MAX : (uint64_t)t;
}

/* At window open (a forked child's too, whose capture has the parent's
 * settings), before any event: the hot path reads these without
 * synchronisation, published by rt__on. */
void rt__tl_setup(uint64_t open_ticks)
{
	rt__tl_mode = rt__cfg.tl_mode;
	rt__tl_fixed_ticks = rt__cfg.tl_min_ns ? ns_to_ticks(rt__cfg.tl_min_ns) : 0;
	if (rt__cfg.tl_min_ns && !rt__tl_fixed_ticks)
		rt__tl_fixed_ticks = 1;
	rt__tl_end_ticks = rt__cfg.duration_ns ? open_ticks + ns_to_ticks(rt__cfg.duration_ns) : 0;
	rt__tl_horizon_ticks = ns_to_ticks(RT_TL_MIN_HORIZON_NS);
}
