/*
 * tl_note.c - what a thread's timeline kept, in the one phrase every report
 * uses (analyze.h: xl_tl_note).
 */
#include <stdio.h>

#include "analyze_internal.h"
#include "units.h"

void xl_tl_note(const struct xl_model *m, const struct xl_thread *t, char *buf, size_t len)
{
	char thr[32];
	size_t n;
	xl_fmt_duration(t->tl_threshold_ns, thr, sizeof(thr));
	if (xl_timing_sampled(m)) { /* no clock read per call: nothing to keep */
		snprintf(buf, len, "no calls (--timing=sampled keeps no timeline)");
		return;
	}
	if (t->tl_threshold_ns <= 0)
		n = (size_t)snprintf(buf, len, "all calls");
	else if (m->tl_min_ns > 0 || t->tl_since_ns < 0)
		n = (size_t)snprintf(buf, len, "calls \u2265 %s", thr);
	else
		n = (size_t)snprintf(buf, len, "calls \u2265 %s after %.3f s", thr, (double)t->tl_since_ns / 1e9);
	if (n >= len)
		return;
	if (t->dropped_events && t->dropped_from_ns >= 0)
		snprintf(buf + n, len - n, ", until %.3f s (timeline buffer full)", (double)t->dropped_from_ns / 1e9);
	else if (t->tl_recycled) {
		struct xl_tl_iter it;
		struct xl_event ev;
		xl_tl_begin(m, t, &it);
		if (xl_tl_next(&it, &ev))
			snprintf(buf + n, len - n, ", the most recent from %.3f s",
				 (double)xl_model_ns(m, ev.ticks) / 1e9);
	}
}
