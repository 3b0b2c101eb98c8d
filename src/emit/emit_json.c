/*
 * emit_json.c - the JSON summary (docs/summary-json.md, "exaloop.profile/1").
 *
 * The same document is the HTML report's data; xl_json_document() writes it
 * through a jsonw so the HTML emitter can ask for the html-safe escaping.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"
#include "jsonw.h"
#include "timeline.h"
#include "xl_array.h"

static void strv(struct jsonw *w, const char *key, char **v)
{
	jw_key(w, key);
	jw_arr(w);
	for (size_t i = 0; v && v[i]; i++)
		jw_str(w, v[i]);
	jw_arr_end(w);
}

static const char *end_reason(uint32_t r)
{
	switch (r) {
	case XL_END_EXIT: return "exit";
	case XL_END_WINDOW: return "window";
	case XL_END_EXEC: return "exec";
	default: return "none";
	}
}

/* Which process and image the capture is, and the other captures of the
 * run in its subdirectories (exec'd images, forked children). */
static void process_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "process");
	jw_obj(w);
	jw_kint(w, "pid", m->pid);
	jw_kint(w, "ppid", m->ppid);
	jw_kint(w, "image", m->image);
	jw_kbool(w, "forked_child", m->fork_child != 0);
	jw_key(w, "related");
	jw_arr(w);
	for (size_t i = 0; i < m->nrelated; i++) {
		const struct xl_related *r = &m->related[i];
		jw_obj(w);
		jw_kstr(w, "dir", r->dir);
		jw_kstr(w, "kind", r->fork_child ? "fork_child" : "exec_image");
		jw_kint(w, "pid", r->pid);
		jw_kint(w, "ppid", r->ppid);
		jw_kint(w, "image", r->image);
		jw_kbool(w, "finalized", r->finalized);
		jw_kstr(w, "end_reason", end_reason(r->end_reason));
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void run_member(const struct xl_model *m, struct jsonw *w)
{
	const struct xl_run *r = &m->run;
	jw_key(w, "run");
	jw_obj(w);
	jw_kstr(w, "program", r->program);
	jw_kstr(w, "executable", r->executable);
	strv(w, "command", r->command);
	strv(w, "args", r->args);
	jw_key(w, "exit_status");
	if (r->has_exit_status)
		jw_int(w, r->exit_status);
	else
		jw_null(w);
	jw_key(w, "signal");
	if (r->signal)
		jw_int(w, r->signal);
	else
		jw_null(w);
	jw_key(w, "compile_time_ns");
	jw_metric(w, r->compile_time_ns >= 0 ? r->compile_time_ns : XL_UNAVAILABLE);
	jw_key(w, "app_time_ns");
	jw_metric(w, r->app_time_ns >= 0 ? r->app_time_ns : XL_UNAVAILABLE);
	jw_kstr(w, "mode", xl_mode_name(m->mode));
	jw_kstr(w, "started_at", r->started_at);
	jw_kbool(w, "finalized", m->finalized);
	jw_kstr(w, "end_reason", end_reason(m->end_reason));
	jw_kstr(w, "clock", m->clock == XL_CLOCK_TSC ? "tsc" : "monotonic");
	jw_kstr(w, "timing", xl_timing_sampled(m) ? "sampled" : "exact");
	jw_key(w, "window");
	jw_obj(w);
	/* A window that never opened (delay longer than the run) is empty at
	 * the end of the run, not a window from 0. */
	int64_t start = m->window_start_ns < 0 ? m->window_end_ns : m->window_start_ns;
	jw_kint(w, "start_ns", start);
	jw_kint(w, "end_ns", m->window_end_ns);
	jw_kint(w, "duration_ns", m->window_end_ns - start);
	jw_obj_end(w);
	jw_key(w, "settings");
	jw_obj(w);
	jw_kint(w, "buffer_size", (int64_t)m->buffer_size);
	jw_kint(w, "memory_interval_ns", (int64_t)m->memory_interval_ns);
	jw_kint(w, "delay_ns", (int64_t)m->delay_ns);
	jw_kint(w, "duration_ns", (int64_t)m->duration_ns);
	jw_kstr(w, "timeline", xl_tl_mode_name(m->tl_mode));
	jw_kint(w, "timeline_min_ns", m->tl_min_ns);
	jw_kint(w, "sample_rate", m->sample_rate);
	strv(w, "include", r->include);
	jw_obj_end(w);
	jw_kstr(w, "capture", r->capture_dir);
	process_member(m, w);
	jw_obj_end(w);
}

/* A thread's functions (those it called), as columns: "func" indexes the
 * document's functions[]. */
static void thread_functions(const struct xl_model *m, struct jsonw *w, const struct xl_func *own)
{
	static const char *const cols[] = {"func", "calls", "self_ns", "total_ns"};
	jw_key(w, "functions");
	jw_obj(w);
	for (size_t c = 0; c < XL_ARRAY_SIZE(cols); c++) {
		jw_key(w, cols[c]);
		jw_arr(w);
		for (size_t f = 0; f < m->nfuncs; f++) {
			if (!own[f].calls || xl_func_is_more(&m->funcs[f]))
				continue;
			jw_int(w, c == 0   ? (int64_t)f
				  : c == 1 ? (int64_t)own[f].calls
				  : c == 2 ? own[f].self_ns
					   : own[f].total_ns);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

/* What the thread's timeline kept (xl_tl_note) and its threshold's
 * history. */
static void thread_timeline(const struct xl_model *m, const struct xl_thread *t, struct jsonw *w)
{
	char note[192];
	xl_tl_note(m, t, note, sizeof(note));
	jw_key(w, "timeline");
	jw_obj(w);
	jw_kstr(w, "note", note);
	jw_kint(w, "threshold_ns", t->tl_threshold_ns);
	jw_key(w, "since_ns");
	jw_metric(w, t->tl_since_ns >= 0 ? t->tl_since_ns : XL_UNAVAILABLE);
	jw_kint(w, "short_calls", (int64_t)t->tl_short_calls);
	jw_kint(w, "recycled_blocks", (int64_t)t->tl_recycled);
	int64_t first = xl_timeline_start(m, t);
	jw_key(w, "first_ns");
	jw_metric(w, first >= 0 ? first : XL_UNAVAILABLE);
	jw_key(w, "history");
	jw_arr(w);
	for (uint32_t k = 0; k < t->ntl_steps; k++) {
		jw_obj(w);
		jw_kint(w, "t_ns", t->tl_steps[k].t_ns);
		jw_kint(w, "threshold_ns", t->tl_steps[k].threshold);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void threads_member(const struct xl_model *m, struct jsonw *w)
{
	/* With one thread its table is the document's functions[]. */
	struct xl_func *own = m->nthreads > 1 ? malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*own)) : NULL;
	if (m->nthreads > 1 && !own)
		jw_fail(w);
	jw_key(w, "threads");
	jw_arr(w);
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		jw_obj(w);
		jw_kint(w, "index", (int64_t)i);
		jw_kint(w, "tid", t->tid);
		jw_kint(w, "process", t->process < m->nprocs ? m->procs[t->process].pid : m->pid);
		jw_kstr(w, "name", t->name);
		jw_kint(w, "events", (int64_t)t->events);
		jw_kint(w, "timeline_events", (int64_t)t->timeline_events);
		jw_kint(w, "dropped_events", (int64_t)t->dropped_events);
		jw_key(w, "dropped_from_ns");
		jw_metric(w, t->dropped_from_ns >= 0 ? t->dropped_from_ns : XL_UNAVAILABLE);
		jw_kint(w, "repaired_exits", (int64_t)t->repaired_exits);
		jw_kint(w, "unwound_frames", (int64_t)t->unwound_frames);
		jw_kint(w, "reentry_lost", (int64_t)t->reentry_lost);
		jw_kint(w, "open_frames", t->open_frames);
		jw_kint(w, "start_ns", t->start_ns);
		jw_kint(w, "end_ns", t->end_ns);
		jw_kint(w, "total_ns", t->total_ns);
		jw_kint(w, "elapsed_ns", t->end_ns > t->start_ns ? t->end_ns - t->start_ns : 0);
		jw_key(w, "cpu_ns");
		jw_metric(w, t->cpu_ns >= 0 ? t->cpu_ns : XL_UNAVAILABLE);
		jw_kbool(w, "tree_bounded", t->tree_bounded);
		jw_kint(w, "more_calls", (int64_t)t->more_calls);
		jw_kint(w, "more_nodes", t->more_nodes);
		jw_kint(w, "nodeless_calls", m->version >= 2 ? (int64_t)t->lost_node_events : 0);
		jw_kbool(w, "function_table", t->func_table);
		thread_timeline(m, t, w);
		if (own && xl_funcs_for_thread(m, (int)i, own) == XL_OK)
			thread_functions(m, w, own);
		else if (own)
			jw_fail(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	free(own);
}

/* The processes of the tree (analyze.h xl_proc), each with its own
 * totals. */
static void processes_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "processes");
	jw_arr(w);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct xl_proc *p = &m->procs[i];
		jw_obj(w);
		jw_kint(w, "pid", p->pid);
		jw_kint(w, "ppid", p->ppid);
		jw_kstr(w, "command", p->command);
		jw_kbool(w, "forked", p->forked);
		jw_kint(w, "images", p->images);
		jw_kstr(w, "status", xl_proc_status(p));
		jw_kstr(w, "exec_command", p->exec_command);
		jw_key(w, "exit_status");
		jw_metric(w, p->has_exit_status && !p->signal ? p->exit_status : XL_UNAVAILABLE);
		jw_key(w, "signal");
		jw_metric(w, p->signal ? p->signal : XL_UNAVAILABLE);
		jw_key(w, "totals");
		jw_obj(w);
		jw_kint(w, "threads", p->nthreads);
		jw_kint(w, "calls", (int64_t)p->calls);
		jw_kint(w, "events", (int64_t)p->events);
		jw_kint(w, "thread_time_ns", p->thread_time_ns);
		jw_key(w, "cpu_time_ns");
		jw_metric(w, p->cpu_ns >= 0 ? p->cpu_ns : XL_UNAVAILABLE);
		jw_kint(w, "start_ns", p->start_ns);
		jw_kint(w, "end_ns", p->end_ns);
		jw_kint(w, "alloc_bytes", (int64_t)p->alloc.bytes);
		jw_obj_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* One xl_alloc as an object (frees: by any thread).  A function's also
 * has path_peak_bytes, the largest peak live figure of one of its call
 * paths: not the function's own peak, which the capture does not hold
 * (its paths' peaks may fall at different moments), but a lower bound of
 * it.  The run's totals have no peak: the runtime keeps none. */
static void alloc_obj(struct jsonw *w, const char *key, const struct xl_alloc *a, int path_peak)
{
	jw_key(w, key);
	jw_obj(w);
	jw_kint(w, "allocs", (int64_t)a->allocs);
	jw_kint(w, "bytes", (int64_t)a->bytes);
	jw_kint(w, "frees", (int64_t)a->frees);
	jw_kint(w, "freed_bytes", (int64_t)a->freed_bytes);
	jw_kint(w, "live_bytes", (int64_t)xl_alloc_live(a));
	jw_kint(w, "gc_bytes", (int64_t)a->gc_bytes);
	if (path_peak)
		jw_kint(w, "path_peak_bytes", (int64_t)a->peak_live);
	jw_obj_end(w);
}

/* Heap allocations (docs/summary-json.md): the run's totals, the
 * "(not attributed)" part, those made outside the capture window, and
 * the frees that matched no allocation. */
static void allocations_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "allocations");
	jw_obj(w);
	jw_kbool(w, "recorded", m->allocs);
	alloc_obj(w, "total", &m->alloc_total, 0);
	alloc_obj(w, "not_attributed", &m->alloc_na, 0);
	if (m->alloc_outside_kept)
		alloc_obj(w, "outside_window", &m->alloc_outside, 0);
	jw_kint(w, "unmatched_frees", (int64_t)m->alloc_unmatched_frees);
	jw_kint(w, "unmatched_bytes", (int64_t)m->alloc_unmatched_bytes);
	jw_kint(w, "untracked", (int64_t)m->alloc_untracked);
	jw_kint(w, "gc_frees", (int64_t)m->gc_frees);
	jw_obj_end(w);
}

/* "inlined": [{"name", "samples"}, ...] */
static void inl_counts(struct jsonw *w, const struct xl_inl_count *v, size_t n)
{
	jw_key(w, "inlined");
	jw_arr(w);
	for (size_t k = 0; k < n; k++) {
		jw_obj(w);
		jw_kstr(w, "name", v[k].name);
		jw_kint(w, "samples", (int64_t)v[k].samples);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* A function's instruction samples: in all, by line of its own code (with
 * the inline chains there), by inlined function (samples.c). */
static void func_samples(const struct xl_func *f, struct jsonw *w)
{
	jw_kint(w, "samples", (int64_t)f->isamples);
	jw_key(w, "lines");
	jw_arr(w);
	for (size_t k = 0; k < f->nlines; k++) {
		jw_obj(w);
		jw_kint(w, "line", f->lines[k].line);
		jw_kint(w, "samples", (int64_t)f->lines[k].samples);
		if (f->lines[k].nchains)
			inl_counts(w, f->lines[k].chains, f->lines[k].nchains);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	inl_counts(w, f->inlined, f->ninlined);
}

static void functions_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "functions");
	jw_arr(w);
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct xl_func *f = &m->funcs[i];
		jw_obj(w);
		jw_kint(w, "id", (int64_t)i);
		jw_kint(w, "xray_id", f->xray_id);
		jw_kstr(w, "name", f->name);
		jw_kstr(w, "short_name", xl_func_shown(f, 0));
		jw_kstr(w, "file", f->file);
		jw_kint(w, "line", f->line);
		jw_kint(w, "calls", (int64_t)f->calls);
		jw_kint(w, "self_ns", f->self_ns);
		jw_kint(w, "total_ns", f->total_ns);
		if (xl_timing_sampled(m)) { /* the estimate's samples and bound */
			jw_kint(w, "self_samples", (int64_t)f->psamples);
			jw_kint(w, "self_err_ns", xl_sampled_err_ns(m, f->psamples));
		}
		if (f->cost_bound_ns >= 0) { /* exact timing: how far the profiler's cost could move self_ns */
			jw_kint(w, "cost_bound_ns", f->cost_bound_ns);
			jw_kbool(w, "cost_uncertain", f->cost_uncertain);
		}
		if (xl_func_is_more(f))
			jw_kbool(w, "more", 1);
		if (m->allocs)
			alloc_obj(w, "alloc", &f->alloc, 1);
		if (m->resolved)
			func_samples(f, w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The tree as columns, one entry per node.  In compact form (the HTML
 * report, where size matters: an interpreter's tree has hundreds of
 * thousands of nodes) `parent_up` gives each node's distance to its parent
 * (0 for a root) instead of the parent's index, which is short because
 * children are made soon after their parents, and `self_ns` is left out:
 * it is max(total_ns - the children's total_ns, 0), as build_tree computes
 * it, so the reader recomputes it exactly. */
/* Per node (self), when allocations were recorded: allocations, bytes,
 * bytes live at the end, peak live bytes.  In compact form (the HTML
 * report) only the nodes that allocated, named by `alloc_at` (the first
 * node's index, then each one's distance from the previous): an
 * interpreter's tree has hundreds of thousands of nodes, and Lua's test
 * suite's report grew by 1.7 MB with dense columns. */
static void tree_allocs(const struct xl_model *m, struct jsonw *w, int compact)
{
	static const char *const cols[] = {"alloc_at", "alloc_calls", "alloc_bytes", "alloc_live", "alloc_peak"};
	size_t ncols = XL_ARRAY_SIZE(cols);
	for (size_t c = compact ? 0 : 1; c < ncols; c++) {
		jw_key(w, cols[c]);
		jw_arr(w);
		size_t prev = 0;
		for (size_t i = 0; i < m->nnodes; i++) {
			const struct xl_alloc *a = &m->node_alloc[i];
			if (compact && !a->allocs)
				continue;
			int64_t v = c == 0   ? (int64_t)(i - prev)
				    : c == 1 ? (int64_t)a->allocs
				    : c == 2 ? (int64_t)a->bytes
				    : c == 3 ? (int64_t)xl_alloc_live(a)
					     : (int64_t)a->peak_live;
			prev = i;
			jw_int(w, v);
		}
		jw_arr_end(w);
	}
}

/* Each path's own instruction samples, when they were resolved.  In
 * compact form (the HTML report) only the paths that have some, named by
 * `samples_at` (the first node's index, then each one's distance from the
 * previous), as for the allocations: most of an interpreter's hundreds of
 * thousands of paths have none. */
static void tree_samples(const struct xl_model *m, struct jsonw *w, int compact)
{
	for (int c = compact ? 0 : 1; c < 2; c++) {
		jw_key(w, c == 0 ? "samples_at" : "samples");
		jw_arr(w);
		size_t prev = 0;
		for (size_t i = 0; i < m->nnodes; i++) {
			if (compact && !m->nodes[i].isamples)
				continue;
			jw_int(w, c == 0 ? (int64_t)(i - prev) : (int64_t)m->nodes[i].isamples);
			prev = i;
		}
		jw_arr_end(w);
	}
}

/* The sampled frames (analyze.h, struct xl_sframe) as columns: `parent`
 * is a node of the tree, or the number of tree nodes plus the index of the
 * sampled frame it is nested in, so the tree and its sampled frames read
 * as one tree of ids; `kind` "inlined" or "library"; `library` the soname
 * (null: the executable's untraced code, or an inlined function). */
static void tree_sampled(const struct xl_model *m, struct jsonw *w)
{
	static const char *const cols[] = {"parent", "thread", "kind", "name", "library", "samples", "est_ns"};
	jw_key(w, "sampled");
	jw_obj(w);
	for (size_t c = 0; c < XL_ARRAY_SIZE(cols); c++) {
		jw_key(w, cols[c]);
		jw_arr(w);
		for (size_t i = 0; i < m->nsframes; i++) {
			const struct xl_sframe *f = &m->sframes[i];
			switch (c) {
			case 0: jw_int(w, f->parent); break;
			case 1: jw_int(w, f->thread); break;
			case 2: jw_str(w, f->kind == XL_SF_INLINED ? "inlined" : "library"); break;
			case 3: jw_str(w, f->name); break;
			case 4: jw_str(w, f->library); break;
			case 5: jw_int(w, (int64_t)f->samples); break;
			default: jw_int(w, f->est_ns); break;
			}
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

/* In compact form, the nodes' threads as runs when that is shorter:
 * `thread_runs` holds a thread index and how many nodes in a row have it,
 * for each run in node order.  A single thread's tree (an interpreter's
 * hundreds of thousands of nodes) needs one run instead of a column of
 * zeros (0.5 MB of Lua's test suite's report); threads whose nodes
 * alternate keep the dense `thread` column.  Returns whether it wrote
 * the runs. */
static int tree_thread_runs(const struct xl_model *m, struct jsonw *w)
{
	size_t runs = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		if (i == 0 || m->nodes[i].thread != m->nodes[i - 1].thread)
			runs++;
	if (runs * 2 >= m->nnodes)
		return 0;
	jw_key(w, "thread_runs");
	jw_arr(w);
	for (size_t i = 0, start = 0; i < m->nnodes; i++) {
		if (i + 1 < m->nnodes && m->nodes[i + 1].thread == m->nodes[i].thread)
			continue;
		jw_int(w, m->nodes[i].thread);
		jw_int(w, (int64_t)(i + 1 - start));
		start = i + 1;
	}
	jw_arr_end(w);
	return 1;
}

static void tree_member(const struct xl_model *m, struct jsonw *w, int compact)
{
	static const char *const cols[] = {"thread", "parent", "func", "calls", "total_ns", "self_ns"};
	size_t ncols = XL_ARRAY_SIZE(cols) - (compact ? 1 : 0);
	jw_key(w, "tree");
	jw_obj(w);
	if (m->allocs)
		tree_allocs(m, w, compact);
	if (m->resolved) {
		tree_samples(m, w, compact);
		tree_sampled(m, w);
	}
	for (size_t c = compact && tree_thread_runs(m, w) ? 1 : 0; c < ncols; c++) {
		jw_key(w, c == 1 && compact ? "parent_up" : cols[c]);
		jw_arr(w);
		for (size_t i = 0; i < m->nnodes; i++) {
			const struct xl_tnode *n = &m->nodes[i];
			switch (c) {
			case 0: jw_int(w, n->thread); break;
			case 1:
				if (!compact)
					jw_int(w, n->parent);
				else
					jw_int(w, n->parent == XL_NONE ? 0 : (int64_t)i - n->parent);
				break;
			case 2: jw_int(w, n->func); break;
			case 3: jw_int(w, (int64_t)n->calls); break;
			case 4: jw_int(w, n->total_ns); break;
			default: jw_int(w, n->self_ns); break;
			}
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

/* The program's peak also says how much the profiler's memory
 * held at that moment (profiler_rss). */
static void metric(struct jsonw *w, const char *key, const struct xl_metric *x, int cumulative, int range,
		   const int64_t *profiler)
{
	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "value");
	jw_metric(w, x->available ? x->value : XL_UNAVAILABLE);
	if (range) {
		jw_key(w, "min");
		jw_metric(w, x->available ? x->min : XL_UNAVAILABLE);
		jw_key(w, "max");
		jw_metric(w, x->available ? x->max : XL_UNAVAILABLE);
	}
	if (cumulative) {
		jw_key(w, "delta");
		jw_metric(w, x->available ? x->delta : XL_UNAVAILABLE);
		if (cumulative > 1) {
			jw_key(w, "rate_per_s");
			if (x->available)
				jw_dbl(w, x->rate_per_s);
			else
				jw_null(w);
		}
	}
	if (profiler) {
		jw_key(w, "profiler_rss");
		jw_metric(w, x->available ? *profiler : XL_UNAVAILABLE);
	}
	if (!x->available)
		jw_kstr(w, "reason", x->reason);
	jw_obj_end(w);
}

static void memory_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "memory");
	jw_obj(w);
	jw_kint(w, "interval_ns", (int64_t)m->memory_interval_ns);
	jw_key(w, "samples");
	jw_obj(w);
	static const char *const cols[] = {"t_ns",         "rss",          "gc_heap",        "gc_free",
					   "gc_occupied",  "gc_allocated", "gc_collections", "program_rss",
					   "profiler_rss", "alloc_bytes",  "alloc_calls"};
	for (size_t c = 0; c < XL_ARRAY_SIZE(cols); c++) {
		jw_key(w, cols[c]);
		jw_arr(w);
		for (size_t i = 0; i < m->nsamples; i++) {
			const struct xl_sample *s = &m->samples[i];
			int64_t v;
			switch (c) {
			case 0: v = s->t_ns; break;
			case 1: v = s->rss; break;
			case 2: v = s->gc_heap; break;
			case 3: v = s->gc_free; break;
			case 4: v = xl_gc_occupied(s); break;
			case 5: v = s->gc_total; break;
			case 6: v = s->gc_collections; break;
			case 7: v = xl_program_rss(s); break;
			case 8: v = s->capture_rss; break;
			case 9: v = s->alloc_bytes; break;
			default: v = s->alloc_calls; break;
			}
			jw_metric(w, v);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
	struct xl_mem_summary sum;
	xl_memory_summary(m, &sum);
	jw_key(w, "summary");
	jw_obj(w);
	metric(w, "rss", &sum.rss, 0, 1, NULL);
	metric(w, "peak_rss", &sum.peak_rss, 0, 0, NULL);
	metric(w, "program_rss", &sum.program_rss, 0, 1, NULL);
	metric(w, "profiler_rss", &sum.profiler_rss, 0, 1, NULL);
	metric(w, "program_peak_rss", &sum.program_peak_rss, 0, 0, &sum.profiler_at_peak);
	metric(w, "gc_heap", &sum.gc_heap, 0, 1, NULL);
	metric(w, "gc_free", &sum.gc_free, 0, 1, NULL);
	metric(w, "gc_occupied", &sum.gc_occupied, 0, 1, NULL);
	metric(w, "gc_allocated", &sum.gc_allocated, 2, 0, NULL);
	metric(w, "gc_collections", &sum.gc_collections, 1, 0, NULL);
	jw_obj_end(w);
	jw_key(w, "gc_events");
	jw_arr(w);
	int64_t prev = XL_UNAVAILABLE;
	for (size_t i = 0; i < m->nsamples; i++) {
		int64_t c = m->samples[i].gc_collections;
		if (c == XL_UNAVAILABLE)
			continue;
		if (prev != XL_UNAVAILABLE && c > prev) {
			jw_obj(w);
			jw_kint(w, "t_ns", m->samples[i].t_ns);
			jw_kint(w, "collections", c - prev);
			jw_obj_end(w);
		}
		prev = c;
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

/* Warnings and notes have one shape; a note says which part of the
 * report it belongs to (topic), a warning its severity. */
static void warning_list(struct jsonw *w, const char *key, const struct xl_warning *v, size_t n, int notes)
{
	jw_key(w, key);
	jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		const struct xl_warning *x = &v[i];
		jw_obj(w);
		jw_kstr(w, "kind", x->kind);
		if (notes)
			jw_kstr(w, "topic", x->topic);
		else
			jw_kstr(w, "severity", "warning");
		jw_kstr(w, "message", x->message);
		jw_key(w, "from_ns");
		jw_metric(w, x->from_ns >= 0 ? x->from_ns : XL_UNAVAILABLE);
		jw_key(w, "to_ns");
		jw_metric(w, x->to_ns >= 0 ? x->to_ns : XL_UNAVAILABLE);
		if (x->pid >= 0) /* a merged process's own */
			jw_kint(w, "process", x->pid);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The timeline member keeps, for each thread, its longest calls over the
 * whole window: every call longer than the (max+1)-th longest, so that
 * ties at the boundary are all in or all out.  A call lies inside its
 * caller, so it is never longer than the caller: whatever the threshold, a
 * kept call's callers are kept too and the view nests completely.
 *
 * One walk of the timeline finds them: calls go into a buffer of twice
 * max+1; when it is full, a selection keeps its max+1 longest, and the
 * shortest of those becomes a floor that most later calls of a long
 * timeline fail with one compare (a call no longer than the floor cannot
 * be longer than the final (max+1)-th longest, which is at least the
 * floor).  (Collecting every duration to choose the threshold, then
 * walking again for the calls, made the report's cost grow with the
 * capture: two walks of 0.9 million calls for fib(30).) */
struct longest {
	struct xl_call *v;
	size_t n, cap, max1; /* max1: max + 1 */
	size_t seen;
	int64_t floor; /* calls no longer than this are not kept (-1: none yet) */
};

static int longer_call(const void *a, const void *b)
{
	int64_t x = ((const struct xl_call *)a)->dur_ns, y = ((const struct xl_call *)b)->dur_ns;
	return (x < y) - (x > y);
}

static void swap_calls(struct xl_call *a, struct xl_call *b)
{
	struct xl_call t = *a;
	*a = *b;
	*b = t;
}

/* Hoare's partition of v[lo..hi] around the median of three, longer calls
 * first: v[lo..j] are at least as long as v[j+1..hi]; returns j.  Equal
 * durations stop both scans, so they split evenly. */
static size_t partition_longer(struct xl_call *v, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	if (v[mid].dur_ns > v[lo].dur_ns)
		swap_calls(&v[mid], &v[lo]);
	if (v[hi].dur_ns > v[lo].dur_ns)
		swap_calls(&v[hi], &v[lo]);
	if (v[hi].dur_ns > v[mid].dur_ns)
		swap_calls(&v[hi], &v[mid]);
	int64_t pivot = v[mid].dur_ns;
	size_t i = lo - 1, j = hi + 1;
	for (;;) {
		do
			i++;
		while (v[i].dur_ns > pivot);
		do
			j--;
		while (v[j].dur_ns < pivot);
		if (i >= j)
			return j;
		swap_calls(&v[i], &v[j]);
	}
}

/* Reorder v[0..n) so that v[k] is the (k+1)-th longest and v[0..k] the
 * k+1 longest (k < n).  Linear on average; past 2 log2(n) rounds (input
 * that defeats the pivots) it sorts what is left, so never worse than
 * n log n. */
static void select_longest(struct xl_call *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	unsigned budget = 2;
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	while (lo < hi) {
		if (budget-- == 0) {
			qsort(v + lo, hi - lo + 1, sizeof(*v), longer_call);
			return;
		}
		size_t j = partition_longer(v, lo, hi);
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
}

static int keep_longest(const struct xl_call *c, void *ctx)
{
	struct longest *h = ctx;
	h->seen++;
	if (c->dur_ns <= h->floor)
		return 0;
	if (h->n == h->cap) {
		if (h->cap >= 2 * h->max1) {
			select_longest(h->v, h->n, h->max1 - 1);
			h->n = h->max1;
			h->floor = h->v[h->max1 - 1].dur_ns;
			if (c->dur_ns <= h->floor)
				return 0;
		} else if (xl_grow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v))) {
			return 1;
		}
	}
	h->v[h->n++] = *c;
	return 0;
}

static int earlier(const struct xl_call *x, const struct xl_call *y)
{
	return x->start_ns < y->start_ns || (x->start_ns == y->start_ns && x->depth < y->depth);
}

/* v[0..n) by start (then depth, outer first), merging runs through tmp
 * (n entries): qsort's indirect calls and 32-byte copies were a tenth of
 * a small run's report. */
static void sort_by_start(struct xl_call *v, size_t n, struct xl_call *tmp)
{
	enum {
		RUN = 16
	};
	for (size_t lo = 0; lo < n; lo += RUN) { /* insertion sort of each run */
		size_t hi = lo + RUN < n ? lo + RUN : n;
		for (size_t i = lo + 1; i < hi; i++) {
			struct xl_call c = v[i];
			size_t j = i;
			for (; j > lo && earlier(&c, &v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = c;
		}
	}
	struct xl_call *from = v, *to = tmp;
	for (size_t width = RUN; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				to[k++] = earlier(&from[j], &from[i]) ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		struct xl_call *t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
}

/* The thread's kept calls in h->v[0..n), by start; returns the shortest
 * duration kept (0 when all fit), -1 when out of memory. */
static int64_t longest_calls(const struct xl_model *m, const struct xl_thread *t, int64_t end, struct longest *h)
{
	if (xl_calls_walk(m, t, end, keep_longest, h) < 0)
		return -1;
	int64_t thr = 0;
	if (h->seen > h->max1 - 1) { /* more than max: cut at the (max+1)-th longest */
		select_longest(h->v, h->n, h->max1 - 1);
		thr = h->v[h->max1 - 1].dur_ns + 1;
		size_t k = 0;
		for (size_t i = 0; i < h->n; i++)
			if (h->v[i].dur_ns >= thr)
				h->v[k++] = h->v[i];
		h->n = k;
	}
	/* The buffer's room past n is the merge's (twice max+1 once it
	 * filled); a thread with fewer calls gets its own. */
	if (h->n > 1) {
		int own = h->cap < 2 * h->n;
		struct xl_call *tmp = own ? malloc(h->n * sizeof(*tmp)) : h->v + h->n;
		if (!tmp)
			return -1;
		sort_by_start(h->v, h->n, tmp);
		if (own)
			free(tmp);
	}
	return thr;
}

static void timeline_member(const struct xl_model *m, struct jsonw *w, size_t max, int compact)
{
	jw_key(w, "timeline");
	jw_obj(w);
	int64_t truncated = -1;
	size_t per_thread = m->nthreads ? max / m->nthreads : max;
	jw_key(w, "threads");
	jw_arr(w);
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		int64_t end = xl_timeline_end(m, t);
		const char *why = t->dropped_events ? "buffer_full" : NULL;
		struct longest cs = {NULL, 0, 0, per_thread + 1, 0, -1};
		int64_t min_dur = longest_calls(m, t, end, &cs);
		if (min_dur < 0)
			jw_fail(w);
		size_t recorded = cs.seen;
		if (why && (truncated < 0 || end < truncated))
			truncated = end;
		jw_obj(w);
		jw_kint(w, "index", (int64_t)i);
		jw_kint(w, "kept_from_ns", t->start_ns);
		jw_kint(w, "kept_to_ns", end);
		jw_kstr(w, "truncated", why);
		jw_kint(w, "recorded_calls", (int64_t)recorded);
		jw_kint(w, "min_dur_ns", min_dur < 0 ? 0 : min_dur);
		/* compact (the report's): start times as gaps from the previous
		 * call's start (small numbers, sorted input) and the unfinished
		 * calls as a list of indices, most calls having finished. */
		static const char *const cols[] = {"start_ns", "dur_ns", "func", "depth", "clipped"};
		for (size_t c = 0; c < 5; c++) {
			jw_key(w, compact && c == 0 ? "start_gap_ns" : compact && c == 4 ? "clipped_at" : cols[c]);
			jw_arr(w);
			for (size_t k = 0; k < cs.n; k++) {
				const struct xl_call *x = &cs.v[k];
				if (compact && c == 4) {
					if (x->open)
						jw_int(w, (int64_t)k);
					continue;
				}
				jw_int(w, c == 0   ? x->start_ns - (compact && k ? cs.v[k - 1].start_ns : 0)
					  : c == 1 ? x->dur_ns
					  : c == 2 ? x->func
					  : c == 3 ? (int64_t)x->depth
						   : x->open);
			}
			jw_arr_end(w);
		}
		jw_obj_end(w);
		free(cs.v);
	}
	jw_arr_end(w);
	jw_key(w, "truncated_from_ns");
	jw_metric(w, truncated >= 0 ? truncated : XL_UNAVAILABLE);
	jw_obj_end(w);
}

static void share(struct jsonw *w, const char *key, double v)
{
	jw_key(w, key);
	if (v >= 0)
		jw_dbl(w, v);
	else
		jw_null(w);
}

static const char *sample_status(const struct xl_model *m)
{
	if (!m->sample_rate)
		return "off";
	switch (m->sample_status) {
	case XL_SAMPLE_ON: return "on";
	case XL_SAMPLE_REFUSED: return "refused";
	case XL_SAMPLE_NO_RING: return "no_ring";
	case XL_SAMPLE_NO_FDTABLE: return "no_fdtable";
	default: return "none";
	}
}

/* The samples (capture format 6): how many, and whether and why
 * instruction samples are missing. */
static void samples_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "samples");
	jw_obj(w);
	jw_kint(w, "rate", m->sample_rate);
	jw_kstr(w, "status", sample_status(m));
	char why[400];
	jw_kstr(w, "reason", xl_samples_unavailable(m, why, sizeof(why)) ? why : NULL);
	jw_kint(w, "instruction", (int64_t)m->nisamples);
	size_t matched = 0;
	for (size_t i = 0; i < m->nisamples; i++)
		matched += m->isamples[i].node != XL_NONE;
	jw_kint(w, "matched", (int64_t)matched);
	jw_kbool(w, "resolved", m->resolved);
	jw_kstr(w, "unresolved_reason", m->resolved || !m->nisamples ? NULL : m->samples_problem);
	jw_kint(w, "lost", (int64_t)m->isamples_lost);
	jw_kint(w, "dropped", (int64_t)m->isamples_dropped);
	jw_kint(w, "position", (int64_t)m->npsamples);
	jw_kint(w, "position_missed", (int64_t)m->psamples_missed);
	jw_kint(w, "threads", m->sample_threads);
	jw_kint(w, "threads_failed", m->sample_threads_failed);
	jw_obj_end(w);
}

/* The profiler's estimated cost (overhead.c); null without traced calls. */
static void overhead_member(const struct xl_model *m, struct jsonw *w)
{
	struct xl_overhead o;
	xl_overhead(m, &o);
	jw_key(w, "overhead");
	if (!o.calls) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "ns_per_call");
	jw_dbl(w, o.ns_per_call);
	jw_kbool(w, "measured", o.measured);
	jw_kint(w, "calls", (int64_t)o.calls);
	jw_kint(w, "cost_ns", (int64_t)o.cost_ns);
	jw_key(w, "cpu_ns");
	jw_metric(w, o.cpu_ns >= 0 ? o.cpu_ns : XL_UNAVAILABLE);
	share(w, "cpu_share", o.cpu_share);
	jw_kint(w, "wall_ns", o.wall_ns);
	share(w, "wall_share", o.wall_share);
	share(w, "elapsed_share", o.elapsed_share);
	jw_key(w, "busiest_thread");
	if (o.busiest >= 0)
		jw_int(w, o.busiest);
	else
		jw_null(w);
	share(w, "busiest_cpu_share", o.busiest_share);
	jw_obj_end(w);
}

/* The report's source view (HTML only): the capture's source text of the
 * sampled lines, ranges of consecutive lines, at most XL_HTML_SOURCE_LINES
 * in all (whole ranges). */
#define XL_HTML_SOURCE_LINES 10000
static void sources_member(const struct xl_model *m, struct jsonw *w)
{
	jw_key(w, "sources");
	jw_arr(w);
	size_t left = XL_HTML_SOURCE_LINES;
	for (size_t i = 0; i < m->nsources && m->sources[i].nlines <= left; i++) {
		const struct xl_source *s = &m->sources[i];
		left -= s->nlines;
		jw_obj(w);
		jw_kstr(w, "file", s->file);
		jw_kint(w, "first", s->first);
		jw_key(w, "lines");
		jw_arr(w);
		for (size_t k = 0; k < s->nlines; k++)
			jw_str(w, s->lines[k]);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void xl_json_document(const struct xl_model *m, struct jsonw *w, const struct xl_emit_opts *o)
{
	jw_obj(w);
	jw_kstr(w, "schema", "exaloop.profile/1");
	jw_kstr(w, "generator", "exaloop " XL_VERSION);
	run_member(m, w);
	jw_key(w, "totals");
	jw_obj(w);
	jw_kint(w, "threads", (int64_t)m->nthreads);
	jw_kint(w, "processes", (int64_t)m->nprocs);
	size_t real = 0; /* "(more call paths)" is not a function */
	for (size_t i = 0; i < m->nfuncs; i++)
		real += !xl_func_is_more(&m->funcs[i]);
	jw_kint(w, "functions", (int64_t)real);
	jw_kint(w, "nodes", (int64_t)m->nnodes);
	jw_kint(w, "events", (int64_t)m->total_events);
	jw_kint(w, "timeline_events", (int64_t)m->total_timeline_events);
	jw_kint(w, "dropped_events", (int64_t)m->total_dropped);
	jw_kint(w, "thread_time_ns", xl_thread_time(m));
	jw_kint(w, "threads_not_recorded", (int64_t)m->threads_dropped + m->threads_unplaced);
	jw_kint(w, "unrecorded_events", (int64_t)m->unrecorded_events);
	jw_kint(w, "open_exits", (int64_t)m->open_exits);
	jw_kint(w, "more_calls", (int64_t)m->more_calls);
	jw_kint(w, "more_nodes", m->more_nodes);
	jw_key(w, "cpu_time_ns");
	int64_t cpu = xl_cpu_time(m, NULL);
	jw_metric(w, cpu >= 0 ? cpu : XL_UNAVAILABLE);
	jw_obj_end(w);
	overhead_member(m, w);
	samples_member(m, w);
	processes_member(m, w);
	threads_member(m, w);
	functions_member(m, w);
	tree_member(m, w, o->compact_tree);
	allocations_member(m, w);
	memory_member(m, w);
	warning_list(w, "warnings", m->warnings, m->nwarnings, 0);
	warning_list(w, "notes", m->notes, m->nnotes, 1);
	if (o->timeline)
		timeline_member(m, w, o->timeline_max ? o->timeline_max : 200000, o->compact_tree);
	if (o->sources)
		sources_member(m, w);
	jw_obj_end(w);
}

int xl_emit_json(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	struct jsonw w;
	jw_init(&w, f, 0);
	xl_json_document(m, &w, o);
	putc('\n', f);
	if (w.failed)
		errno = ENOMEM;
	return ferror(f) || w.failed ? -1 : 0;
}
