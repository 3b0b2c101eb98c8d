/*
 * memory.c - the memory summary every emitter shows.
 *
 * Values come from the samples taken inside the capture window; peak RSS is
 * the kernel's high-water mark (VmHWM) and so covers the whole process
 * lifetime up to finalization, including time outside the window.
 *
 * The process's RSS includes the capture buffer (the mapped capture file),
 * which the runtime measures at each sample and at finalization (format 3):
 * the program's RSS is the rest.  The program's peak is the larger of its
 * largest sample and VmHWM minus the buffer at finalization: the buffer
 * only grows, so VmHWM, taken at some moment t, was at most the program's
 * RSS at t plus the final buffer, and both are lower bounds of the
 * program's true peak (the second one catches a peak between samples).
 */
#include <string.h>

#include "analyze.h"

int64_t xl_gc_occupied(const struct xl_sample *s)
{
	if (s->gc_heap == XL_UNAVAILABLE || s->gc_free == XL_UNAVAILABLE)
		return XL_UNAVAILABLE;
	return s->gc_heap > s->gc_free ? s->gc_heap - s->gc_free : 0;
}

int64_t xl_program_rss(const struct xl_sample *s)
{
	if (s->rss == XL_UNAVAILABLE || s->capture_rss == XL_UNAVAILABLE)
		return XL_UNAVAILABLE;
	return s->rss > s->capture_rss ? s->rss - s->capture_rss : 0;
}

static int64_t get_rss(const struct xl_sample *s)
{
	return s->rss;
}
static int64_t get_capture_rss(const struct xl_sample *s)
{
	return s->capture_rss;
}
static int64_t get_gc_heap(const struct xl_sample *s)
{
	return s->gc_heap;
}
static int64_t get_gc_free(const struct xl_sample *s)
{
	return s->gc_free;
}
static int64_t get_gc_total(const struct xl_sample *s)
{
	return s->gc_total;
}
static int64_t get_gc_collections(const struct xl_sample *s)
{
	return s->gc_collections;
}

static void series(const struct xl_model *m, struct xl_metric *out, int64_t (*get)(const struct xl_sample *),
		   const char *reason)
{
	memset(out, 0, sizeof(*out));
	int64_t first = XL_UNAVAILABLE;
	int64_t first_t = 0, last_t = 0;
	for (size_t i = 0; i < m->nsamples; i++) {
		const struct xl_sample *s = &m->samples[i];
		int64_t v = get(s);
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

/* The program's peak RSS (see the top of the file) and the capture
 * buffer's resident bytes at that moment. */
static void program_peak(const struct xl_model *m, struct xl_mem_summary *s, const char *reason)
{
	struct xl_metric *p = &s->program_peak_rss;
	memset(p, 0, sizeof(*p));
	s->profiler_at_peak = XL_UNAVAILABLE;
	for (size_t i = 0; i < m->nsamples; i++) {
		int64_t v = xl_program_rss(&m->samples[i]);
		if (v != XL_UNAVAILABLE && (!p->available || v > p->value)) {
			p->available = 1;
			p->value = v;
			s->profiler_at_peak = m->samples[i].capture_rss;
		}
	}
	if (s->peak_rss.available && m->capture_rss != XL_UNAVAILABLE && m->capture_rss <= s->peak_rss.value) {
		int64_t v = s->peak_rss.value - m->capture_rss;
		if (!p->available || v > p->value) {
			p->available = 1;
			p->value = v;
			s->profiler_at_peak = m->capture_rss;
		}
	}
	if (p->available)
		p->min = p->max = p->value;
	else
		p->reason = s->peak_rss.available ? reason : s->peak_rss.reason;
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
	/* No sample at all: none was taken (the program ended or was killed
	 * before the first, or the capture lost them), which says nothing of
	 * /proc; samples without the value: the runtime could not read it. */
	const char *rss_reason =
		m->mode == XL_MODE_XRAY  ? "memory is not sampled in xray mode"
		: m->window_start_ns < 0 ? "the capture window never opened"
		: m->nsamples == 0
			? "no memory sample in the capture (the program ended or was killed before the first, or "
			  "the capture was cut short)"
			: "/proc/self/statm could not be read";
	if (m->window_start_ns < 0 && m->mode != XL_MODE_XRAY)
		gc_reason = "the capture window never opened";
	series(m, &s->rss, get_rss, rss_reason);
	const char *share_reason = m->version < 3 && m->mode != XL_MODE_XRAY
					   ? "captures before format 3 do not measure the profiler's share"
					   : rss_reason;
	series(m, &s->program_rss, xl_program_rss, share_reason);
	series(m, &s->profiler_rss, get_capture_rss, share_reason);
	series(m, &s->gc_heap, get_gc_heap, gc_reason);
	series(m, &s->gc_free, get_gc_free, gc_reason);
	series(m, &s->gc_occupied, xl_gc_occupied, gc_reason);
	series(m, &s->gc_allocated, get_gc_total, gc_reason);
	series(m, &s->gc_collections, get_gc_collections, gc_reason);
	memset(&s->peak_rss, 0, sizeof(s->peak_rss));
	if (m->peak_rss != XL_UNAVAILABLE && m->peak_rss > 0) {
		s->peak_rss.available = 1;
		s->peak_rss.value = s->peak_rss.max = s->peak_rss.min = m->peak_rss;
	} else {
		s->peak_rss.reason = m->finalized ? "VmHWM could not be read"
						  : "the capture was not finalized (read at the end of the run)";
	}
	program_peak(m, s, share_reason);
}
