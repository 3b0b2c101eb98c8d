/*
 * emit_chrome.c - Chrome Trace Event JSON, as read by Perfetto and
 * chrome://tracing.
 *
 * Streams: one complete ("X") event per call rebuilt from each thread's
 * timeline, written as the call completes, so memory does not grow with
 * the number of events.  Memory series are counter ("C") events, one name
 * per series; GC collections are instant ("i") events.  Timestamps are
 * microseconds.
 *
 * Size: a trace has millions of call events, so each one holds only what
 * the viewers need to draw it (name, phase, start, duration, pid, tid).
 * Where each function is defined is written once, in otherData.functions;
 * an event carries args.fn (its index there) only when its name is shared
 * by several functions (two static functions of the same name), and
 * args.unfinished when the call never returned.  Run metadata, truncation,
 * what the timeline kept (its mode and each thread's threshold: calls
 * shorter were left out) and the function table go in "otherData", built by other_data() below:
 * add new metadata there (docs/cli.md, "Chrome export").
 */
#include <errno.h>
#include <stdlib.h>

#include "emit_internal.h"
#include "timeline.h"

struct ctx {
	const struct xl_model *m;
	struct jsonw *w;
	uint32_t pid, tid;
	const unsigned char *shared; /* per function: its name is not unique */
};

static void ts(struct jsonw *w, const char *key, int64_t ns)
{
	jw_key(w, key);
	jw_us(w, ns);
}

static int call_event(const struct xl_call *c, void *arg)
{
	struct ctx *x = arg;
	struct jsonw *w = x->w;
	jw_obj(w);
	const struct xl_func *fn = c->func >= 0 ? &x->m->funcs[c->func] : NULL;
	jw_kstr(w, "name", fn ? fn->name : "?");
	jw_kstr(w, "ph", "X");
	ts(w, "ts", c->start_ns);
	ts(w, "dur", c->dur_ns);
	jw_kint(w, "pid", x->pid);
	jw_kint(w, "tid", x->tid);
	int ambiguous = fn && x->shared && x->shared[c->func];
	if (c->open || ambiguous) {
		jw_key(w, "args");
		jw_obj(w);
		if (ambiguous)
			jw_kint(w, "fn", c->func);
		if (c->open)
			jw_kbool(w, "unfinished", 1);
		jw_obj_end(w);
	}
	jw_obj_end(w);
	return 0;
}

static void meta(struct jsonw *w, const char *name, uint32_t pid, uint32_t tid, const char *value)
{
	jw_obj(w);
	jw_kstr(w, "name", name);
	jw_kstr(w, "ph", "M");
	jw_kint(w, "pid", pid);
	jw_kint(w, "tid", tid);
	jw_key(w, "args");
	jw_obj(w);
	jw_kstr(w, "name", value);
	jw_obj_end(w);
	jw_obj_end(w);
}

static void counter_as(struct jsonw *w, uint32_t pid, const char *name, const char *unit, int64_t t, int64_t v)
{
	if (v == XL_UNAVAILABLE)
		return;
	jw_obj(w);
	jw_kstr(w, "name", name);
	jw_kstr(w, "ph", "C");
	ts(w, "ts", t);
	jw_kint(w, "pid", pid);
	jw_key(w, "args");
	jw_obj(w);
	jw_kint(w, unit, v);
	jw_obj_end(w);
	jw_obj_end(w);
}

static void counter(struct jsonw *w, uint32_t pid, const char *name, int64_t t, int64_t v)
{
	counter_as(w, pid, name, "bytes", t, v);
}

static void memory_events(const struct xl_model *m, struct jsonw *w, uint32_t pid)
{
	int64_t prev_gc = XL_UNAVAILABLE;
	for (size_t i = 0; i < m->nsamples; i++) {
		const struct xl_sample *s = &m->samples[i];
		counter(w, pid, "RSS", s->t_ns, s->rss);
		counter(w, pid, "GC heap", s->t_ns, s->gc_heap);
		counter(w, pid, "GC free", s->t_ns, s->gc_free);
		counter(w, pid, "GC occupied estimate", s->t_ns, xl_gc_occupied(s));
		counter(w, pid, "GC allocated", s->t_ns, s->gc_total);
		counter(w, pid, "heap bytes allocated", s->t_ns, s->alloc_bytes);
		counter_as(w, pid, "heap allocations", "allocations", s->t_ns, s->alloc_calls);
		if (s->gc_collections == XL_UNAVAILABLE)
			continue;
		if (prev_gc != XL_UNAVAILABLE && s->gc_collections > prev_gc) {
			jw_obj(w);
			jw_kstr(w, "name", "GC collection");
			jw_kstr(w, "ph", "i");
			jw_kstr(w, "s", "p");
			ts(w, "ts", s->t_ns);
			jw_kint(w, "pid", pid);
			jw_kint(w, "tid", 0);
			jw_key(w, "args");
			jw_obj(w);
			jw_kint(w, "collections", s->gc_collections - prev_gc);
			jw_kint(w, "total", s->gc_collections);
			jw_obj_end(w);
			jw_obj_end(w);
		}
		prev_gc = s->gc_collections;
	}
}

/* otherData.functions: every function once, in the model's order (args.fn
 * of an event indexes it), with where it is defined. */
static void functions_table(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "functions");
	jw_arr(w);
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct xl_func *fn = &m->funcs[i];
		jw_obj(w);
		jw_kstr(w, "name", fn->name);
		jw_kstr(w, "file", fn->file);
		jw_kint(w, "line", fn->line);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The trace's metadata ("otherData"): one member per fact about the run. */
/* What the timeline kept: the events are its calls only (the call tree
 * and tables count every call); per thread, its threshold (xl_tl_note). */
static void timeline_kept(const struct xl_model *m, struct jsonw *w)
{
	jw_kstr(w, "timeline_mode", xl_tl_mode_name(m->tl_mode));
	jw_kint(w, "timeline_min_ns", m->tl_min_ns);
	jw_key(w, "timeline_kept");
	jw_arr(w);
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		char note[192];
		xl_tl_note(m, t, note, sizeof(note));
		jw_obj(w);
		jw_kint(w, "tid", t->tid);
		jw_kstr(w, "note", note);
		jw_kint(w, "threshold_ns", t->tl_threshold_ns);
		jw_kint(w, "short_calls", (int64_t)t->tl_short_calls);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void other_data(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "otherData");
	jw_obj(w);
	jw_kstr(w, "generator", "exaloop " XL_VERSION);
	jw_kstr(w, "program", m->run.program);
	jw_kstr(w, "mode", xl_mode_name(m->mode));
	jw_kbool(w, "finalized", m->finalized);
	int64_t truncated = m->timeline_full_ns;
	jw_kbool(w, "timeline_truncated", truncated >= 0);
	jw_key(w, "timeline_truncated_from_us");
	if (truncated >= 0)
		jw_dbl(w, (double)truncated / 1000.0);
	else
		jw_null(w);
	jw_kint(w, "dropped_events", (int64_t)m->total_dropped);
	timeline_kept(m, w);
	jw_key(w, "warnings");
	jw_arr(w);
	for (size_t i = 0; i < m->nwarnings; i++)
		jw_str(w, m->warnings[i].message);
	jw_arr_end(w);
	functions_table(m, w);
	jw_obj_end(w);
}

int xl_emit_chrome(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	(void)o;
	struct jsonw w;
	jw_init(&w, f, 0);
	uint32_t pid = 1;
	unsigned char *shared;
	if (xl_shared_names(m, &shared) != 0)
		jw_fail(&w);
	jw_obj(&w);
	jw_kstr(&w, "displayTimeUnit", "ns");
	jw_key(&w, "traceEvents");
	jw_arr(&w);
	meta(&w, "process_name", pid, 0, m->run.program ? m->run.program : "profiled program");
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		meta(&w, "thread_name", pid, t->tid, t->name);
		struct ctx x = {m, &w, pid, t->tid, shared};
		if (xl_calls_walk(m, t, xl_timeline_end(m, t), call_event, &x) < 0)
			jw_fail(&w);
	}
	memory_events(m, &w, pid);
	jw_arr_end(&w);
	other_data(m, &w);
	jw_obj_end(&w);
	putc('\n', f);
	free(shared);
	if (w.failed)
		errno = ENOMEM;
	return ferror(f) || w.failed ? -1 : 0;
}
