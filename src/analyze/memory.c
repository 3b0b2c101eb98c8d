/*
 * memory.c - the memory summary every emitter shows.
 *
 * Values come from the samples taken inside the capture window; peak RSS is
 * the kernel's high-water mark (VmHWM) and so covers the whole process
 * lifetime up to finalization, including time outside the window.
 */
#include <stddef.h>
#include <string.h>

#include "analyze.h"

int64_t xl_gc_occupied(const struct xl_sample *s)
{
	if (s->gc_heap == XL_UNAVAILABLE || s->gc_free == XL_UNAVAILABLE)
		return XL_UNAVAILABLE;
	return s->gc_heap > s->gc_free ? s->gc_heap - s->gc_free : 0;
}

static void series(const struct xl_model *m, struct xl_metric *out, size_t field_off, int occupied, const char *reason)
{
	memset(out, 0, sizeof(*out));
	int64_t first = XL_UNAVAILABLE;
	int64_t first_t = 0, last_t = 0;
	for (size_t i = 0; i < m->nsamples; i++) {
		const struct xl_sample *s = &m->samples[i];
		int64_t v = occupied ? xl_gc_occupied(s) : *(const int64_t *)((const char *)s + field_off);
		if (v == XL_UNAVAILABLE)
			continue;
		if (!out->available) {
			out->available = 1;
			out->min = out->max = first = v;
			first_t = s->t_ns;
		}
		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
		out->value = v;
		last_t = s->t_ns;
	}
	if (!out->available) {
		out->reason = reason;
		return;
	}
	out->delta = out->value - first;
	if (last_t > first_t)
		out->rate_per_s = (double)out->delta / ((double)(last_t - first_t) / 1e9);
}

void xl_memory_summary(const struct xl_model *m, struct xl_mem_summary *s)
{
	const char *gc_reason;
	if (m->mode == XL_MODE_XRAY)
		gc_reason = "memory is not sampled in xray mode";
	else if (!(m->flags & XL_FLAG_GC_PRESENT))
		gc_reason = "the program does not use the Boehm GC";
	else
		gc_reason = "the Boehm collector was not initialised during the capture";
	const char *rss_reason = m->mode == XL_MODE_XRAY  ? "memory is not sampled in xray mode"
				 : m->window_start_ns < 0 ? "the capture window never opened"
							  : "/proc/self/statm could not be read";
	if (m->window_start_ns < 0 && m->mode != XL_MODE_XRAY)
		gc_reason = "the capture window never opened";
	series(m, &s->rss, offsetof(struct xl_sample, rss), 0, rss_reason);
	series(m, &s->gc_heap, offsetof(struct xl_sample, gc_heap), 0, gc_reason);
	series(m, &s->gc_free, offsetof(struct xl_sample, gc_free), 0, gc_reason);
	series(m, &s->gc_occupied, 0, 1, gc_reason);
	series(m, &s->gc_allocated, offsetof(struct xl_sample, gc_total), 0, gc_reason);
	series(m, &s->gc_collections, offsetof(struct xl_sample, gc_collections), 0, gc_reason);
	memset(&s->peak_rss, 0, sizeof(s->peak_rss));
	if (m->peak_rss != XL_UNAVAILABLE && m->peak_rss > 0) {
		s->peak_rss.available = 1;
		s->peak_rss.value = s->peak_rss.max = s->peak_rss.min = m->peak_rss;
	} else {
		s->peak_rss.reason = m->finalized ? "VmHWM could not be read"
						  : "the capture was not finalized (read at the end of the run)";
	}
}
