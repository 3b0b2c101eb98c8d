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
	jw_kstr(w, "timing", xl_timing_sampled(m) ? "sampled" : "exact");
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

/*
 * The instruction samples, in the format's own sampling members: each a
 * "samples" entry at its time and thread whose "sf" names its innermost
 * frame in "stackFrames": the traced frames of its call path ("n<node>",
 * category "traced"), and inside them the sampled frames it counts in
 * ("s<k>", category "sampled": "step_n (inlined)", "libc.so.6`memcpy").
 * Only frames that samples reach are written, with their ancestors.
 */
static void frame_name(const struct xl_model *m, int32_t id, char *buf, size_t len)
{
	if (id < (int32_t)m->nnodes) {
		snprintf(buf, len, "%s", xl_func_shown(&m->funcs[m->nodes[id].func], 0));
		return;
	}
	xl_sframe_label(&m->sframes[id - (int32_t)m->nnodes], buf, len);
}

static int32_t frame_parent(const struct xl_model *m, int32_t id)
{
	int32_t p = id < (int32_t)m->nnodes ? m->nodes[id].parent : m->sframes[id - (int32_t)m->nnodes].parent;
	return p >= 0 && p < (int32_t)m->nnodes && m->nodes[p].parent == XL_NONE ? XL_NONE : p;
}

static void frame_key(const struct xl_model *m, int32_t id, char *buf, size_t len)
{
	if (id < (int32_t)m->nnodes)
		snprintf(buf, len, "n%d", id);
	else
		snprintf(buf, len, "s%d", id - (int32_t)m->nnodes);
}

static void stack_frames(const struct xl_model *m, struct jsonw *w, unsigned char *want)
{
	size_t n = m->nnodes + m->nsframes;
	for (size_t i = 0; i < m->nisamples; i++) {
		int32_t c = m->isamples[i].frame;
		if (c != XL_NONE && c < (int32_t)m->nnodes && m->nodes[c].parent == XL_NONE)
			continue; /* no traced frame open: no stack to name */
		for (; c != XL_NONE && !want[c]; c = frame_parent(m, c))
			want[c] = 1;
	}
	jw_key(w, "stackFrames");
	jw_obj(w);
	char key[32], name[600];
	for (size_t i = 0; i < n; i++) {
		if (!want[i])
			continue;
		frame_key(m, (int32_t)i, key, sizeof(key));
		jw_key(w, key);
		jw_obj(w);
		frame_name(m, (int32_t)i, name, sizeof(name));
		jw_kstr(w, "name", name);
		jw_kstr(w, "category", i < m->nnodes ? "traced" : "sampled");
		int32_t p = frame_parent(m, (int32_t)i);
		if (p != XL_NONE) {
			frame_key(m, p, key, sizeof(key));
			jw_kstr(w, "parent", key);
		}
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static int sample_members(const struct xl_model *m, struct jsonw *w, uint32_t pid)
{
	unsigned char *want = calloc(m->nnodes + m->nsframes + 1, 1);
	if (!want)
		return -1;
	stack_frames(m, w, want);
	jw_key(w, "samples");
	jw_arr(w);
	char key[32];
	for (size_t i = 0; i < m->nisamples; i++) {
		const struct xl_isamp *s = &m->isamples[i];
		if (s->frame == XL_NONE || !want[s->frame] || s->thread >= m->nthreads)
			continue;
		jw_obj(w);
		jw_kint(w, "cpu", 0);
		jw_kint(w, "pid", m->nprocs > 1 ? xl_thread_pid(m, &m->threads[s->thread]) : pid);
		jw_kint(w, "tid", m->threads[s->thread].tid);
		ts(w, "ts", s->t_ns);
		jw_kstr(w, "name", "cpu-clock");
		frame_key(m, s->frame, key, sizeof(key));
		jw_kstr(w, "sf", key);
		jw_kint(w, "weight", 1);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	free(want);
	return 0;
}

int xl_emit_chrome(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	(void)o;
	struct jsonw w;
	jw_init(&w, f, 0);
	/* the process's own pid, as the Perfetto export and pprof's labels
	 * (1 for a capture that has none) */
	uint32_t pid = m->nprocs > 1 ? m->procs[0].pid : m->pid ? m->pid : 1;
	unsigned char *shared;
	if (xl_shared_names(m, &shared) != 0)
		jw_fail(&w);
	jw_obj(&w);
	jw_kstr(&w, "displayTimeUnit", "ns");
	jw_key(&w, "traceEvents");
	jw_arr(&w);
	meta(&w, "process_name", pid, 0, m->run.program ? m->run.program : "profiled program");
	for (size_t i = 1; i < m->nprocs; i++) /* a process tree: the real pids */
		meta(&w, "process_name", m->procs[i].pid, 0, m->procs[i].command ? m->procs[i].command : "process");
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		uint32_t tpid = m->nprocs > 1 ? xl_thread_pid(m, t) : pid;
		meta(&w, "thread_name", tpid, t->tid, t->name);
		struct ctx x = {m, &w, tpid, t->tid, shared};
		if (xl_calls_walk(m, t, xl_timeline_end(m, t), call_event, &x) < 0)
			jw_fail(&w);
	}
	memory_events(m, &w, pid);
	jw_arr_end(&w);
	if (m->resolved && m->nisamples && sample_members(m, &w, pid) != 0) {
		free(shared);
		return -1;
	}
	other_data(m, &w);
	jw_obj_end(&w);
	putc('\n', f);
	free(shared);
	if (w.failed)
		errno = ENOMEM;
	return ferror(f) || w.failed ? -1 : 0;
}
