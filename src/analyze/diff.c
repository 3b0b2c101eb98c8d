/*
 * diff.c - two sides of captures -> one differential model (diff.h).
 *
 * Functions are interned by name in an open-addressing table whose slots
 * hold the first entry of that name; entries of one name are chained (a
 * static function may exist in several files).  Each entry keeps its raw
 * per-run values until the medians are taken.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "xl_assert.h"
#include "shortname.h"
#include "xl_array.h"

enum {
	Q_CALLS,
	Q_SELF,
	Q_TOTAL,
	NQ
};

struct entry {
	const char *name, *file; /* borrowed from a model until the end */
	int line;
	int32_t next_same_name;
	int present[2];
	double *runs; /* [run][NQ], BASE runs first, then NEW */
};

struct builder {
	struct entry *e;
	size_t n, cap;
	int32_t *slots; /* first entry of a name, or -1 */
	size_t nslots;
	size_t nruns; /* all runs of both sides */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int same_file(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int grow_slots(struct builder *b)
{
	size_t n = b->nslots ? b->nslots * 2 : 256;
	int32_t *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		s[i] = -1;
	for (size_t i = 0; i < b->nslots; i++) {
		if (b->slots[i] < 0)
			continue;
		size_t k = hash_str(b->e[b->slots[i]].name) & (n - 1);
		while (s[k] >= 0)
			k = (k + 1) & (n - 1);
		s[k] = b->slots[i];
	}
	free(b->slots);
	b->slots = s;
	b->nslots = n;
	return 0;
}

/* The slot holding the chain of `name` (or the empty slot where it goes). */
static size_t find_slot(const struct builder *b, const char *name)
{
	size_t k = hash_str(name) & (b->nslots - 1);
	while (b->slots[k] >= 0 && strcmp(b->e[b->slots[k]].name, name) != 0)
		k = (k + 1) & (b->nslots - 1);
	return k;
}

/* The entry a function of `side` pairs with: same name and file; else the
 * only entry of that name when the side has not seen it (a function that
 * moved to another file between builds); else a new entry. */
static int32_t intern(struct builder *b, const struct xl_func *f, int side)
{
	if ((b->n + 1) * 2 > b->nslots && grow_slots(b) != 0)
		return -1;
	size_t k = find_slot(b, f->name);
	int32_t only = -1, count = 0;
	for (int32_t i = b->slots[k]; i >= 0; i = b->e[i].next_same_name) {
		if (same_file(b->e[i].file, f->file))
			return i;
		only = i;
		count++;
	}
	if (count == 1 && !b->e[only].present[side])
		return only;
	if (xl_grow((void **)&b->e, &b->cap, b->n + 1, sizeof(*b->e)))
		return -1;
	struct entry *e = &b->e[b->n];
	memset(e, 0, sizeof(*e));
	e->runs = calloc(b->nruns * NQ, sizeof(double));
	if (!e->runs)
		return -1;
	e->name = f->name;
	e->file = f->file;
	e->line = f->line;
	e->next_same_name = b->slots[k];
	b->slots[k] = (int32_t)b->n;
	return (int32_t)b->n++;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median and range of n values (n >= 1); v is reordered. */
static void stats(double *v, size_t n, double *med, double *lo, double *hi)
{
	XL_ASSERT(n >= 1);
	qsort(v, n, sizeof(double), cmp_dbl);
	*lo = v[0];
	*hi = v[n - 1];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void side_stats(double *v, size_t n, struct xl_dval *out, int side, double scale)
{
	stats(v, n, &out->v[side], &out->lo[side], &out->hi[side]);
	out->v[side] *= scale;
	out->lo[side] *= scale;
	out->hi[side] *= scale;
}

static int64_t wall_time(const struct xl_model *m)
{
	if (m->run.app_time_ns >= 0)
		return m->run.app_time_ns;
	int64_t start = m->window_start_ns < 0 ? m->window_end_ns : m->window_start_ns;
	return m->window_end_ns - start;
}

/* Run totals: wall and thread time, peak RSS and GC collections (-1 when
 * unavailable).  Scaling, if any, is applied by the caller. */
static void totals(struct xl_diff *d, double *tmp)
{
	struct xl_dval *out[4] = {&d->wall_ns, &d->thread_ns, &d->peak_rss, &d->gc_collections};
	for (int s = 0; s < 2; s++) {
		const struct xl_diff_side *sd = d->side[s];
		size_t n = sd->nruns;
		for (size_t r = 0; r < n; r++) {
			const struct xl_model *m = sd->runs[r];
			struct xl_mem_summary ms;
			xl_memory_summary(m, &ms);
			tmp[r] = (double)wall_time(m);
			tmp[n + r] = (double)xl_thread_time(m);
			/* the program's, without the profiler's memory (capture
			 * buffer, allocation table), which grows with what was
			 * recorded (capture formats 3 and 4) */
			const struct xl_metric *pk =
				ms.program_peak_rss.available ? &ms.program_peak_rss : &ms.peak_rss;
			tmp[2 * n + r] = pk->available ? (double)pk->value : -1;
			tmp[3 * n + r] = ms.gc_collections.available ? (double)ms.gc_collections.value : -1;
		}
		for (int q = 0; q < 4; q++)
			side_stats(tmp + q * n, n, out[q], s, 1.0);
	}
}

static void scale_base(struct xl_dval *x, double scale)
{
	x->v[XL_BASE] *= scale;
	x->lo[XL_BASE] *= scale;
	x->hi[XL_BASE] *= scale;
}

/* The child of diff node p for function f, created when missing. */
static int32_t child(struct xl_diff *d, size_t *cap, int32_t p, int32_t f)
{
	for (int32_t c = d->nodes[p].first_child; c >= 0; c = d->nodes[c].next_sibling)
		if (d->nodes[c].func == f)
			return c;
	if (xl_grow((void **)&d->nodes, cap, d->nnodes + 1, sizeof(*d->nodes)))
		return -1;
	struct xl_diff_node *c = &d->nodes[d->nnodes];
	memset(c, 0, sizeof(*c));
	c->parent = p;
	c->func = f;
	c->first_child = XL_NONE;
	c->next_sibling = d->nodes[p].first_child;
	d->nodes[p].first_child = (int32_t)d->nnodes;
	return (int32_t)d->nnodes++;
}

/* Add one run's calling-context trees (all threads) into the diff tree. */
static int add_tree(struct xl_diff *d, size_t *cap, const struct xl_model *m, const int32_t *fmap, int side)
{
	int32_t *stack = malloc((m->nnodes + 1) * 2 * sizeof(int32_t));
	if (!stack)
		return -1;
	for (size_t t = 0; t < m->nthreads; t++) {
		int32_t r = m->threads[t].root;
		if (r < 0 || (size_t)r >= m->nnodes)
			continue;
		d->nodes[0].total_ns[side] += (double)m->nodes[r].total_ns;
		d->nodes[0].self_ns[side] += (double)m->nodes[r].self_ns;
		size_t sp = 0;
		for (int32_t c = m->nodes[r].first_child; c >= 0; c = m->nodes[c].next_sibling)
			stack[sp++] = c, stack[sp++] = 0;
		while (sp) {
			int32_t dp = stack[--sp], mn = stack[--sp];
			const struct xl_tnode *n = &m->nodes[mn];
			int32_t f = n->func >= 0 ? fmap[n->func] : -1;
			if (f < 0)
				continue;
			int32_t dn = child(d, cap, dp, f);
			if (dn < 0) {
				free(stack);
				return -1;
			}
			d->nodes[dn].calls[side] += (double)n->calls;
			d->nodes[dn].total_ns[side] += (double)n->total_ns;
			d->nodes[dn].self_ns[side] += (double)n->self_ns;
			for (int32_t c = n->first_child; c >= 0; c = m->nodes[c].next_sibling)
				stack[sp++] = c, stack[sp++] = dn;
		}
	}
	free(stack);
	return 0;
}

/* Intern every function seen in every run; fmaps[run][i]: the entry of
 * the run's function i (-1 when it made no call).  0, or -1 when out of
 * memory. */
static int intern_all(struct xl_diff *d, struct builder *b, int32_t **fmaps)
{
	size_t run = 0;
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < d->side[s]->nruns; r++, run++) {
			const struct xl_model *m = d->side[s]->runs[r];
			fmaps[run] = malloc((m->nfuncs + 1) * sizeof(int32_t));
			if (!fmaps[run])
				return -1;
			for (size_t i = 0; i < m->nfuncs; i++) {
				const struct xl_func *f = &m->funcs[i];
				fmaps[run][i] = -1;
				if (!f->calls)
					continue;
				int32_t k = intern(b, f, s);
				if (k < 0)
					return -1;
				fmaps[run][i] = k;
				b->e[k].present[s] = 1;
				double *v = &b->e[k].runs[run * NQ];
				v[Q_CALLS] += (double)f->calls;
				v[Q_SELF] += (double)f->self_ns;
				v[Q_TOTAL] += (double)f->total_ns;
			}
		}
	return 0;
}

/* Medians and spreads per function, and whether the self time's change
 * is significant.  tmp: room for a side's runs.  0, or -1 when out of
 * memory. */
static int func_stats(struct xl_diff *d, const struct builder *b, double *tmp)
{
	d->funcs = calloc(b->n + 1, sizeof(*d->funcs));
	if (!d->funcs)
		return -1;
	d->nfuncs = b->n;
	for (size_t i = 0; i < b->n; i++) {
		const struct entry *e = &b->e[i];
		struct xl_diff_func *f = &d->funcs[i];
		f->name = strdup(e->name);
		f->file = e->file ? strdup(e->file) : NULL;
		if (!f->name || (e->file && !f->file))
			return -1;
		f->line = e->line;
		f->present[0] = e->present[0];
		f->present[1] = e->present[1];
		for (int q = 0; q < NQ; q++) {
			struct xl_dval *x = q == Q_CALLS ? &f->calls : q == Q_SELF ? &f->self_ns : &f->total_ns;
			size_t first = 0;
			for (int s = 0; s < 2; s++) {
				size_t n = d->side[s]->nruns;
				for (size_t r = 0; r < n; r++)
					tmp[r] = e->runs[(first + r) * NQ + q];
				side_stats(tmp, n, x, s, s == XL_BASE && q != Q_CALLS ? d->scale : 1.0);
				first += n;
			}
		}
		if (d->side[XL_BASE]->nruns < 2 || d->side[XL_NEW]->nruns < 2)
			f->significant = -1;
		else
			f->significant = f->self_ns.hi[XL_BASE] < f->self_ns.lo[XL_NEW] ||
					 f->self_ns.hi[XL_NEW] < f->self_ns.lo[XL_BASE];
	}
	return 0;
}

/* The merged calling-context tree: every run's tree added, then the sums
 * over runs made means (divided once, so whole counts stay whole); BASE
 * times scaled, counts never.  0, or -1 when out of memory. */
static int merged_tree(struct xl_diff *d, int32_t **fmaps)
{
	size_t cap = 256;
	d->nodes = calloc(cap, sizeof(*d->nodes));
	if (!d->nodes)
		return -1;
	d->nnodes = 1;
	d->nodes[0].parent = d->nodes[0].func = d->nodes[0].first_child = d->nodes[0].next_sibling = XL_NONE;
	size_t run = 0;
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < d->side[s]->nruns; r++, run++)
			if (add_tree(d, &cap, d->side[s]->runs[r], fmaps[run], s) != 0)
				return -1;
	for (size_t i = 0; i < d->nnodes; i++)
		for (int s = 0; s < 2; s++) {
			double n = (double)d->side[s]->nruns, w = (s == XL_BASE ? d->scale : 1.0) / n;
			d->nodes[i].calls[s] /= n;
			d->nodes[i].total_ns[s] *= w;
			d->nodes[i].self_ns[s] *= w;
		}
	return 0;
}

int xl_diff_build(const struct xl_diff_side *base, const struct xl_diff_side *new_, int normalize, struct xl_diff *d)
{
	XL_ASSERT(base->nruns >= 1 && new_->nruns >= 1); /* diff.h: each side has runs */
	memset(d, 0, sizeof(*d));
	d->side[XL_BASE] = base;
	d->side[XL_NEW] = new_;
	d->scale = 1.0;
	struct builder b = {0};
	b.nruns = base->nruns + new_->nruns;
	int rc = XL_ENOMEM;
	double *tmp = malloc((4 * b.nruns + 1) * sizeof(double));
	int32_t **fmaps = calloc(b.nruns + 1, sizeof(int32_t *));
	if (!tmp || !fmaps)
		goto out;
	totals(d, tmp);
	if (normalize && d->thread_ns.v[XL_BASE] > 0 && d->thread_ns.v[XL_NEW] > 0) {
		d->normalized = 1;
		d->scale = d->thread_ns.v[XL_NEW] / d->thread_ns.v[XL_BASE];
		scale_base(&d->thread_ns, d->scale);
		scale_base(&d->wall_ns, d->scale);
	}
	if (intern_all(d, &b, fmaps) != 0 || func_stats(d, &b, tmp) != 0)
		goto out;
	/* Display names over both sides' functions: two that only one side
	 * has could share a short form that each side's model tells apart
	 * from nothing. */
	if (xl_short_names((const char *const *)&d->funcs[0].name, &d->funcs[0].short_name, d->nfuncs,
			   sizeof(d->funcs[0])) != XL_OK)
		goto out;
	if (merged_tree(d, fmaps) != 0)
		goto out;
	rc = XL_OK;
out:
	for (size_t i = 0; i < b.n; i++)
		free(b.e[i].runs);
	free(b.e);
	free(b.slots);
	for (size_t i = 0; fmaps && i < b.nruns; i++)
		free(fmaps[i]);
	free(fmaps);
	free(tmp);
	if (rc != XL_OK)
		xl_diff_free(d);
	return rc;
}

void xl_diff_free(struct xl_diff *d)
{
	for (size_t i = 0; d->funcs && i < d->nfuncs; i++) {
		free(d->funcs[i].name);
		free(d->funcs[i].short_name);
		free(d->funcs[i].file);
	}
	free(d->funcs);
	free(d->nodes);
	d->funcs = NULL;
	d->nodes = NULL;
	d->nfuncs = d->nnodes = 0;
}

static const char *const sort_names[] = {
	[XL_DSORT_SELF] = "self", [XL_DSORT_TOTAL] = "total", [XL_DSORT_CALLS] = "calls"};

int xl_diff_sort_parse(const char *s, enum xl_diff_sort *out)
{
	for (size_t i = 0; i < XL_ARRAY_SIZE(sort_names); i++)
		if (strcmp(s, sort_names[i]) == 0) {
			*out = (enum xl_diff_sort)i;
			return 0;
		}
	return -1;
}

const char *xl_diff_sort_name(enum xl_diff_sort by)
{
	return sort_names[by];
}

double xl_diff_rel(const struct xl_dval *x)
{
	return x->v[XL_BASE] > 0 ? x->v[XL_NEW] / x->v[XL_BASE] - 1.0 : NAN;
}

static const struct xl_diff *sort_diff;
static enum xl_diff_sort sort_key;

static double change(const struct xl_diff_func *f)
{
	const struct xl_dval *x = sort_key == XL_DSORT_SELF    ? &f->self_ns
				  : sort_key == XL_DSORT_TOTAL ? &f->total_ns
							       : &f->calls;
	return fabs(x->v[XL_NEW] - x->v[XL_BASE]);
}

static int cmp_change(const void *a, const void *b)
{
	const struct xl_diff_func *x = &sort_diff->funcs[*(const size_t *)a],
				  *y = &sort_diff->funcs[*(const size_t *)b];
	double cx = change(x), cy = change(y);
	int r = (cy > cx) - (cy < cx);
	if (!r)
		r = strcmp(x->name, y->name);
	if (!r)
		r = (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
	return r;
}

void xl_diff_sorted(const struct xl_diff *d, enum xl_diff_sort by, size_t *idx)
{
	for (size_t i = 0; i < d->nfuncs; i++)
		idx[i] = i;
	sort_diff = d; /* single-threaded CLI: qsort has no context argument */
	sort_key = by;
	qsort(idx, d->nfuncs, sizeof(size_t), cmp_change);
}
