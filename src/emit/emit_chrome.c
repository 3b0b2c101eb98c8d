/*
 * emit_chrome.c - Chrome Trace Event JSON, as read by Perfetto and
 * chrome://tracing.
 *
 * Streams: one complete ("X") event per call rebuilt from each thread's
 * timeline, written as the call completes, so memory does not grow with
 * the number of events.  Memory series are counter ("C") events, one name
 * per series; GC collections are instant ("i") events.  Run metadata and
 * truncation go in "otherData".  Timestamps are microseconds.
 */
#include "emit_internal.h"
#include "timeline.h"

struct ctx {
	const struct xl_model *m;
	struct jsonw *w;
	uint32_t pid, tid;
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
	jw_kstr(w, "cat", "function");
	jw_kstr(w, "ph", "X");
	ts(w, "ts", c->start_ns);
	ts(w, "dur", c->dur_ns);
	jw_kint(w, "pid", x->pid);
	jw_kint(w, "tid", x->tid);
	if (c->open || (fn && fn->file)) {
		jw_key(w, "args");
		jw_obj(w);
		if (fn && fn->file) {
			jw_kstr(w, "file", fn->file);
			jw_kint(w, "line", fn->line);
		}
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

static void counter(struct jsonw *w, uint32_t pid, const char *name, int64_t t, int64_t v)
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
	jw_kint(w, "bytes", v);
	jw_obj_end(w);
	jw_obj_end(w);
}

int xl_emit_chrome(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	(void)o;
	struct jsonw w;
	jw_init(&w, f, 0);
	uint32_t pid = 1;
	jw_obj(&w);
	jw_kstr(&w, "displayTimeUnit", "ns");
	jw_key(&w, "traceEvents");
	jw_arr(&w);
	meta(&w, "process_name", pid, 0, m->run.program ? m->run.program : "profiled program");
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		meta(&w, "thread_name", pid, t->tid, t->name);
		struct ctx x = {m, &w, pid, t->tid};
		xl_calls_walk(m, t, xl_timeline_end(m, t), call_event, &x);
	}
	int64_t prev_gc = XL_UNAVAILABLE;
	for (size_t i = 0; i < m->nsamples; i++) {
		const struct xl_sample *s = &m->samples[i];
		counter(&w, pid, "RSS", s->t_ns, s->rss);
		counter(&w, pid, "GC heap", s->t_ns, s->gc_heap);
		counter(&w, pid, "GC free", s->t_ns, s->gc_free);
		counter(&w, pid, "GC occupied estimate", s->t_ns, xl_gc_occupied(s));
		counter(&w, pid, "GC allocated", s->t_ns, s->gc_total);
		if (s->gc_collections != XL_UNAVAILABLE) {
			if (prev_gc != XL_UNAVAILABLE && s->gc_collections > prev_gc) {
				jw_obj(&w);
				jw_kstr(&w, "name", "GC collection");
				jw_kstr(&w, "ph", "i");
				jw_kstr(&w, "s", "p");
				ts(&w, "ts", s->t_ns);
				jw_kint(&w, "pid", pid);
				jw_kint(&w, "tid", 0);
				jw_key(&w, "args");
				jw_obj(&w);
				jw_kint(&w, "collections", s->gc_collections - prev_gc);
				jw_kint(&w, "total", s->gc_collections);
				jw_obj_end(&w);
				jw_obj_end(&w);
			}
			prev_gc = s->gc_collections;
		}
	}
	jw_arr_end(&w);
	jw_key(&w, "otherData");
	jw_obj(&w);
	jw_kstr(&w, "generator", "exaloop " XL_VERSION);
	jw_kstr(&w, "program", m->run.program);
	jw_kstr(&w, "mode", xl_mode_name(m->mode));
	jw_kbool(&w, "finalized", m->finalized);
	int64_t truncated = m->timeline_full_ns;
	jw_kbool(&w, "timeline_truncated", truncated >= 0);
	jw_key(&w, "timeline_truncated_from_us");
	if (truncated >= 0)
		jw_dbl(&w, (double)truncated / 1000.0);
	else
		jw_null(&w);
	jw_kint(&w, "dropped_events", (int64_t)m->total_dropped);
	jw_key(&w, "warnings");
	jw_arr(&w);
	for (size_t i = 0; i < m->nwarnings; i++)
		jw_str(&w, m->warnings[i].message);
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_obj_end(&w);
	putc('\n', f);
	return ferror(f) ? -1 : 0;
}
