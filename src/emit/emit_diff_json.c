/*
 * emit_diff_json.c - the diff document ("exaloop.diff/1",
 * docs/diff-json.md; schema docs/diff.schema.json).  The HTML diff page
 * embeds the same document.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "emit_diff.h"
#include "emit_diff_internal.h"
#include "emit_internal.h"

static void num(struct jsonw *w, double v, int integer)
{
	if (integer)
		jw_int(w, (int64_t)llround(v));
	else
		jw_dbl(w, v);
}

/* {"base", "new", "change", "change_pct", "base_range", "new_range"};
 * present[s] == 0 or a negative value (unavailable) -> null. */
static void dval(struct jsonw *w, const char *key, const struct xl_dval *x, const int *present, int integer,
		 const struct xl_diff *d)
{
	int have[2];
	for (int s = 0; s < 2; s++)
		have[s] = (!present || present[s]) && x->v[s] >= 0;
	jw_key(w, key);
	jw_obj(w);
	for (int s = 0; s < 2; s++) {
		jw_key(w, s == XL_BASE ? "base" : "new");
		if (have[s])
			num(w, x->v[s], integer);
		else
			jw_null(w);
	}
	/* A one-sided function changed from (or to) nothing. */
	jw_key(w, "change");
	if ((have[0] || (present && !present[0])) && (have[1] || (present && !present[1])) && (have[0] || have[1]))
		num(w, (have[1] ? x->v[1] : 0) - (have[0] ? x->v[0] : 0), integer);
	else
		jw_null(w);
	double rel = xl_diff_rel(x);
	jw_key(w, "change_pct");
	if (have[0] && have[1] && !isnan(rel))
		jw_fixed(w, rel * 100.0, 3);
	else
		jw_null(w);
	for (int s = 0; s < 2; s++) {
		jw_key(w, s == XL_BASE ? "base_range" : "new_range");
		if (have[s] && d->side[s]->nruns > 1) {
			jw_arr(w);
			num(w, x->lo[s], integer);
			num(w, x->hi[s], integer);
			jw_arr_end(w);
		} else {
			jw_null(w);
		}
	}
	jw_obj_end(w);
}

static void side(struct jsonw *w, const char *key, const struct xl_diff_side *s)
{
	jw_key(w, key);
	jw_obj(w);
	jw_kstr(w, "program", s->runs[0]->run.program);
	jw_kstr(w, "mode", xl_mode_name(s->runs[0]->mode));
	jw_kint(w, "runs", (int64_t)s->nruns);
	jw_key(w, "captures");
	jw_arr(w);
	for (size_t i = 0; i < s->nruns; i++)
		jw_str(w, s->runs[i]->run.capture_dir);
	jw_arr_end(w);
	/* each capture's capture-quality warnings: what its figures lack */
	jw_key(w, "warnings");
	jw_arr(w);
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = 0; k < s->runs[i]->nwarnings; k++) {
			const struct xl_warning *x = &s->runs[i]->warnings[k];
			jw_obj(w);
			jw_kstr(w, "capture", s->runs[i]->run.capture_dir);
			jw_kstr(w, "kind", x->kind);
			jw_kstr(w, "message", x->message);
			jw_obj_end(w);
		}
	jw_arr_end(w);
	jw_obj_end(w);
}

/* The program's RSS (the profiler's memory apart) when the capture
 * measured the buffer (format 3), else the process's. */
static int64_t program_rss(const struct xl_sample *s)
{
	int64_t v = xl_program_rss(s);
	return v != XL_UNAVAILABLE ? v : s->rss;
}

static void metric_array(struct jsonw *w, const char *key, const struct xl_model *m, int occupied)
{
	jw_key(w, key);
	jw_arr(w);
	for (size_t i = 0; i < m->nsamples; i++)
		jw_metric(w, occupied ? xl_gc_occupied(&m->samples[i]) : program_rss(&m->samples[i]));
	jw_arr_end(w);
}

/* The first run of each side: both charts share one axis (time from the
 * start of each process). */
static void memory(struct jsonw *w, const struct xl_diff *d)
{
	jw_key(w, "memory");
	jw_obj(w);
	for (int s = 0; s < 2; s++) {
		const struct xl_model *m = d->side[s]->runs[0];
		jw_key(w, s == XL_BASE ? "base" : "new");
		jw_obj(w);
		jw_key(w, "t_ns");
		jw_arr(w);
		for (size_t i = 0; i < m->nsamples; i++)
			jw_int(w, m->samples[i].t_ns);
		jw_arr_end(w);
		metric_array(w, "rss", m, 0);
		metric_array(w, "gc_occupied", m, 1);
		struct xl_mem_summary ms;
		xl_memory_summary(m, &ms);
		const struct xl_metric *pk = ms.program_peak_rss.available ? &ms.program_peak_rss : &ms.peak_rss;
		jw_key(w, "peak_rss");
		jw_metric(w, pk->available && pk->value > 0 ? pk->value : XL_UNAVAILABLE);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void tree_array(struct jsonw *w, const char *key, const struct xl_diff *d, size_t off, int integer)
{
	jw_key(w, key);
	jw_arr(w);
	for (size_t i = 0; i < d->nnodes; i++)
		num(w, *(const double *)((const char *)&d->nodes[i] + off), integer);
	jw_arr_end(w);
}

void xl_diff_document(const struct xl_diff *d, struct jsonw *w, const struct xl_diff_opts *o, size_t *order)
{
	jw_obj(w);
	jw_kstr(w, "schema", "exaloop.diff/1");
	jw_kstr(w, "generator", "exaloop " XL_VERSION);
	jw_kstr(w, "sort", xl_diff_sort_name(o->sort));
	jw_key(w, "top");
	if (o->top)
		jw_int(w, (int64_t)o->top);
	else
		jw_null(w);
	jw_kbool(w, "normalized", d->normalized);
	jw_key(w, "scale");
	jw_fixed(w, d->scale, 6);
	side(w, "base", d->side[XL_BASE]);
	side(w, "new", d->side[XL_NEW]);
	jw_key(w, "totals");
	jw_obj(w);
	dval(w, "wall_ns", &d->wall_ns, NULL, 1, d);
	dval(w, "thread_ns", &d->thread_ns, NULL, 1, d);
	dval(w, "peak_rss", &d->peak_rss, NULL, 1, d);
	dval(w, "gc_collections", &d->gc_collections, NULL, 1, d);
	jw_obj_end(w);

	/* functions[] in the sort order; the tree refers to them by position. */
	size_t *pos = order + d->nfuncs;
	for (size_t i = 0; i < d->nfuncs; i++)
		pos[order[i]] = i;
	jw_key(w, "functions");
	jw_arr(w);
	for (size_t i = 0; i < d->nfuncs; i++) {
		const struct xl_diff_func *f = &d->funcs[order[i]];
		jw_obj(w);
		jw_kstr(w, "name", f->name);
		jw_kstr(w, "short_name", f->short_name ? f->short_name : f->name);
		jw_kstr(w, "file", f->file);
		jw_kint(w, "line", f->line);
		jw_kstr(w, "status", !f->present[XL_BASE] ? "new_only" : !f->present[XL_NEW] ? "base_only" : "both");
		jw_key(w, "significant");
		if (f->significant < 0)
			jw_null(w);
		else
			jw_bool(w, f->significant);
		dval(w, "calls", &f->calls, f->present, 0, d);
		dval(w, "self_ns", &f->self_ns, f->present, 1, d);
		dval(w, "total_ns", &f->total_ns, f->present, 1, d);
		jw_obj_end(w);
	}
	jw_arr_end(w);

	jw_key(w, "tree");
	jw_obj(w);
	jw_key(w, "parent");
	jw_arr(w);
	for (size_t i = 0; i < d->nnodes; i++)
		jw_int(w, d->nodes[i].parent);
	jw_arr_end(w);
	jw_key(w, "func");
	jw_arr(w);
	for (size_t i = 0; i < d->nnodes; i++)
		jw_int(w, d->nodes[i].func < 0 ? -1 : (int64_t)pos[d->nodes[i].func]);
	jw_arr_end(w);
	tree_array(w, "calls_base", d, offsetof(struct xl_diff_node, calls[XL_BASE]), 0);
	tree_array(w, "calls_new", d, offsetof(struct xl_diff_node, calls[XL_NEW]), 0);
	tree_array(w, "total_base_ns", d, offsetof(struct xl_diff_node, total_ns[XL_BASE]), 1);
	tree_array(w, "total_new_ns", d, offsetof(struct xl_diff_node, total_ns[XL_NEW]), 1);
	tree_array(w, "self_base_ns", d, offsetof(struct xl_diff_node, self_ns[XL_BASE]), 1);
	tree_array(w, "self_new_ns", d, offsetof(struct xl_diff_node, self_ns[XL_NEW]), 1);
	jw_obj_end(w);
	memory(w, d);
	jw_obj_end(w);
}

int xl_emit_diff_json(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o)
{
	size_t *order = malloc((2 * d->nfuncs + 1) * sizeof(size_t));
	if (!order)
		return -1;
	xl_diff_sorted(d, o->sort, order);
	struct jsonw w;
	jw_init(&w, f, 0);
	xl_diff_document(d, &w, o, order);
	fputc('\n', f);
	free(order);
	return ferror(f) ? -1 : 0;
}
