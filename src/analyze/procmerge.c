/*
 * procmerge.c - one capture of the process tree merged into the model.
 *
 * proctree.c reads each capture of a process tree on its own (a forked
 * child's, an exec'd image's) and hands it here: its threads, call-tree
 * nodes, per-thread function tables, allocations and samples are appended
 * to the model's, with their indices moved past the model's own, and its
 * times moved to the model's axis (the top capture's start).  A function
 * is the same function in two captures when its XRay id and its name are
 * the same (a forked child runs the parent's executable; an exec'd image
 * may be another program, whose ids name other functions): its figures
 * are added; another is appended, and funcs is sorted again by id, then
 * name, so that xl_func_index() still finds the top capture's functions.
 *
 * Memory samples stay the top process's (each process has its own
 * resident memory; the chart is of the process exaloop started).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"

static int cmp_func_key(int32_t id, const char *name, const struct xl_func *f)
{
	if (id != f->xray_id)
		return id < f->xray_id ? -1 : 1;
	return strcmp(name, f->name);
}

/* The index of the function (id, name) in m's funcs[0..n) (sorted), or
 * XL_NONE. */
static int32_t find_func(const struct xl_model *m, size_t n, int32_t id, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_func_key(id, name, &m->funcs[mid]);
		if (c == 0)
			return (int32_t)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return XL_NONE;
}

static int grow(void **p, size_t n, size_t size)
{
	void *q = realloc(*p, (n ? n : 1) * size);
	if (!q)
		return XL_ENOMEM;
	*p = q;
	return XL_OK;
}

static int cmp_inl(const void *a, const void *b)
{
	const struct xl_inl_count *x = a, *y = b;
	return (x->samples < y->samples) - (x->samples > y->samples);
}

/* Add from[] into *to (by name), most samples first; from's names move. */
static int merge_inl(struct xl_inl_count **to, size_t *nto, struct xl_inl_count *from, size_t nfrom)
{
	if (!nfrom)
		return XL_OK;
	if (grow((void **)to, *nto + nfrom, sizeof(**to)))
		return XL_ENOMEM;
	for (size_t i = 0; i < nfrom; i++) {
		size_t k = 0;
		while (k < *nto && strcmp((*to)[k].name, from[i].name) != 0)
			k++;
		if (k < *nto) {
			(*to)[k].samples += from[i].samples;
			free(from[i].name);
		} else {
			(*to)[(*nto)++] = from[i];
		}
		from[i].name = NULL;
	}
	qsort(*to, *nto, sizeof(**to), cmp_inl);
	return XL_OK;
}

/* Add g's samples by line into f's (both ascending by line). */
static int merge_lines(struct xl_func *f, struct xl_func *g)
{
	for (size_t i = 0; i < g->nlines; i++) {
		struct xl_line_count *l = &g->lines[i];
		size_t k = 0;
		while (k < f->nlines && f->lines[k].line < l->line)
			k++;
		if (k < f->nlines && f->lines[k].line == l->line) {
			f->lines[k].samples += l->samples;
			if (merge_inl(&f->lines[k].chains, &f->lines[k].nchains, l->chains, l->nchains))
				return XL_ENOMEM;
			continue;
		}
		if (grow((void **)&f->lines, f->nlines + 1, sizeof(*f->lines)))
			return XL_ENOMEM;
		memmove(&f->lines[k + 1], &f->lines[k], (f->nlines - k) * sizeof(*f->lines));
		f->lines[k] = *l;
		f->nlines++;
		l->chains = NULL;
		l->nchains = 0;
	}
	return XL_OK;
}

/* g's figures added to f (the same function in another capture). */
static int add_func(struct xl_func *f, struct xl_func *g)
{
	f->calls += g->calls;
	f->self_ns = xl_add_ns(f->self_ns, g->self_ns);
	f->total_ns = xl_add_ns(f->total_ns, g->total_ns);
	xl_alloc_add(&f->alloc, &g->alloc);
	f->isamples += g->isamples;
	f->psamples += g->psamples;
	if (!f->file && g->file) {
		f->file = g->file;
		f->line = g->line;
		g->file = NULL;
	}
	if (merge_lines(f, g))
		return XL_ENOMEM;
	return merge_inl(&f->inlined, &f->ninlined, g->inlined, g->ninlined);
}

static const struct xl_model *sort_model; /* qsort has no context argument */

static int cmp_func_idx(const void *a, const void *b)
{
	const struct xl_func *x = &sort_model->funcs[*(const size_t *)a], *y = &sort_model->funcs[*(const size_t *)b];
	return cmp_func_key(x->xray_id, x->name, y);
}

/* Sort m's funcs by (id, name) again and move every index into them. */
static int resort_funcs(struct xl_model *m)
{
	size_t n = m->nfuncs, *idx = malloc((n ? n : 1) * sizeof(*idx));
	int32_t *pos = malloc((n ? n : 1) * sizeof(*pos));
	struct xl_func *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!idx || !pos || !sorted) {
		free(idx), free(pos), free(sorted);
		return XL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_model = m;
	qsort(idx, n, sizeof(*idx), cmp_func_idx);
	for (size_t i = 0; i < n; i++) {
		sorted[i] = m->funcs[idx[i]];
		pos[idx[i]] = (int32_t)i;
	}
	free(m->funcs);
	m->funcs = sorted;
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->nodes[i].func != XL_NONE)
			m->nodes[i].func = pos[m->nodes[i].func];
	for (size_t i = 0; i < m->nfstats; i++)
		m->fstats[i].func = pos[m->fstats[i].func];
	for (size_t i = 0; i < m->nfallocs; i++)
		m->fallocs[i].func = pos[m->fallocs[i].func];
	for (size_t p = 0; p < m->nparts; p++)
		for (size_t i = 0; i < m->parts[p].nids; i++)
			m->parts[p].fmap[i] = pos[m->parts[p].fmap[i]];
	free(idx);
	free(pos);
	return XL_OK;
}

int xl_part_ids(struct xl_part *p, const struct xl_model *s)
{
	p->ids = malloc((s->nfuncs ? s->nfuncs : 1) * sizeof(*p->ids));
	p->fmap = malloc((s->nfuncs ? s->nfuncs : 1) * sizeof(*p->fmap));
	if (!p->ids || !p->fmap) { /* the caller may not own p yet: nothing left behind */
		free(p->ids);
		free(p->fmap);
		p->ids = NULL;
		p->fmap = NULL;
		return XL_ENOMEM;
	}
	for (size_t i = 0; i < s->nfuncs; i++) {
		p->ids[i] = s->funcs[i].xray_id;
		p->fmap[i] = (int32_t)i;
	}
	p->nids = s->nfuncs;
	return XL_OK;
}

/* s's functions into m: p->fmap[i] is where s's funcs[i] went. */
static int merge_funcs(struct xl_model *m, struct xl_model *s, struct xl_part *p)
{
	if (xl_part_ids(p, s) || grow((void **)&m->funcs, m->nfuncs + s->nfuncs, sizeof(*m->funcs)))
		return XL_ENOMEM;
	size_t before = m->nfuncs;
	for (size_t i = 0; i < s->nfuncs; i++) {
		struct xl_func *g = &s->funcs[i];
		int32_t k = find_func(m, before, g->xray_id, g->name);
		if (k != XL_NONE) {
			p->fmap[i] = k;
			if (add_func(&m->funcs[k], g))
				return XL_ENOMEM;
			continue;
		}
		p->fmap[i] = (int32_t)m->nfuncs;
		m->funcs[m->nfuncs++] = *g;
		memset(g, 0, sizeof(*g)); /* moved: s keeps an entry without names */
		g->xray_id = p->ids[i];
	}
	return m->nfuncs > before ? resort_funcs(m) : XL_OK;
}

static int64_t shifted(int64_t ns, int64_t shift)
{
	return ns >= 0 ? xl_add_ns(ns, shift) : ns;
}

/* s's threads and their call trees, after m's (T threads, N nodes). */
static int merge_threads(struct xl_model *m, const struct xl_model *s, const struct xl_part *p, uint32_t part,
			 uint32_t process)
{
	size_t T = m->nthreads, N = m->nnodes, F = m->nfstats;
	if (grow((void **)&m->threads, T + s->nthreads, sizeof(*m->threads)) ||
	    grow((void **)&m->nodes, N + s->nnodes, sizeof(*m->nodes)) ||
	    grow((void **)&m->fstats, F + s->nfstats, sizeof(*m->fstats)))
		return XL_ENOMEM;
	for (size_t i = 0; i < s->nthreads; i++) {
		struct xl_thread *t = &m->threads[T + i];
		*t = s->threads[i];
		t->root += (int32_t)N;
		t->fstat_first += F;
		t->process = process;
		t->part = part;
		t->start_ns = shifted(t->start_ns, p->shift_ns);
		t->end_ns = shifted(t->end_ns, p->shift_ns);
		t->dropped_from_ns = shifted(t->dropped_from_ns, p->shift_ns);
		t->cpu_to_ns = shifted(t->cpu_to_ns, p->shift_ns);
		if (t->tl_since_ns > 0)
			t->tl_since_ns = shifted(t->tl_since_ns, p->shift_ns);
		for (uint32_t k = 0; k < t->ntl_steps; k++)
			t->tl_steps[k].t_ns = shifted(t->tl_steps[k].t_ns, p->shift_ns);
	}
	for (size_t i = 0; i < s->nnodes; i++) {
		struct xl_tnode *n = &m->nodes[N + i];
		*n = s->nodes[i];
		n->thread += (uint32_t)T;
		n->parent = n->parent == XL_NONE ? XL_NONE : n->parent + (int32_t)N;
		n->first_child = n->first_child == XL_NONE ? XL_NONE : n->first_child + (int32_t)N;
		n->next_sibling = n->next_sibling == XL_NONE ? XL_NONE : n->next_sibling + (int32_t)N;
		n->func = n->func == XL_NONE ? XL_NONE : p->fmap[n->func];
	}
	for (size_t i = 0; i < s->nfstats; i++) {
		m->fstats[F + i] = s->fstats[i];
		m->fstats[F + i].func = p->fmap[s->fstats[i].func];
	}
	m->nthreads += s->nthreads;
	m->nfstats += s->nfstats;
	return XL_OK;
}

/* s's allocations, its nodes' after m's N (called before m->nnodes
 * grows). */
static int merge_allocs(struct xl_model *m, const struct xl_model *s, const struct xl_part *p, size_t N)
{
	if (s->allocs || m->allocs) {
		if (grow((void **)&m->node_alloc, N + s->nnodes, sizeof(*m->node_alloc)))
			return XL_ENOMEM;
		if (!m->allocs)
			memset(m->node_alloc, 0, N * sizeof(*m->node_alloc));
		for (size_t i = 0; i < s->nnodes; i++)
			m->node_alloc[N + i] = s->allocs ? s->node_alloc[i] : (struct xl_alloc){0};
		m->allocs = 1;
	}
	size_t A = m->nfallocs, T = m->nthreads - s->nthreads;
	if (grow((void **)&m->fallocs, A + s->nfallocs, sizeof(*m->fallocs)))
		return XL_ENOMEM;
	for (size_t i = 0; i < s->nfallocs; i++) {
		m->fallocs[A + i] = s->fallocs[i];
		m->fallocs[A + i].thread += (uint32_t)T;
		m->fallocs[A + i].func = p->fmap[s->fallocs[i].func];
	}
	m->nfallocs += s->nfallocs;
	xl_alloc_add(&m->alloc_na, &s->alloc_na);
	xl_alloc_add(&m->alloc_outside, &s->alloc_outside);
	xl_alloc_add(&m->alloc_total, &s->alloc_total);
	m->alloc_unmatched_frees += s->alloc_unmatched_frees;
	m->alloc_unmatched_bytes += s->alloc_unmatched_bytes;
	m->alloc_untracked += s->alloc_untracked;
	m->gc_frees += s->gc_frees;
	return XL_OK;
}

/* A frame index (a node, or nnodes + a sampled frame: xl_sframe.parent,
 * xl_isamp.frame) of s (sn nodes) in m, which had N nodes and S sampled
 * frames before s's. */
static int32_t frame_in(int32_t f, size_t sn, size_t N, size_t S)
{
	return f == XL_NONE ? XL_NONE : f + (int32_t)((size_t)f < sn ? N : N + S);
}

/* s's instruction and position samples and sampled frames; N: m's node
 * count before s's, T its thread count (a frame index past the nodes is
 * nnodes + a sampled frame's: m's own move with the node count). */
static int merge_samples(struct xl_model *m, struct xl_model *s, const struct xl_part *p, size_t N, size_t T)
{
	size_t I = m->nisamples, P = m->npsamples, S = m->nsframes;
	if (grow((void **)&m->isamples, I + s->nisamples, sizeof(*m->isamples)) ||
	    grow((void **)&m->psamples, P + s->npsamples, sizeof(*m->psamples)) ||
	    grow((void **)&m->sframes, S + s->nsframes, sizeof(*m->sframes)) ||
	    grow((void **)&m->sources, m->nsources + s->nsources, sizeof(*m->sources)))
		return XL_ENOMEM;
	for (size_t i = 0; i < s->nisamples; i++) {
		struct xl_isamp *x = &m->isamples[I + i];
		*x = s->isamples[i]; /* ips stay in s's mapping, kept by the part */
		x->thread += (uint32_t)T;
		x->node = x->node == XL_NONE ? XL_NONE : x->node + (int32_t)N;
		x->frame = frame_in(x->frame, s->nnodes, N, S);
		x->t_ns = shifted(x->t_ns, p->shift_ns);
	}
	for (size_t i = 0; i < I; i++)
		if (m->isamples[i].frame != XL_NONE && (size_t)m->isamples[i].frame >= N)
			m->isamples[i].frame += (int32_t)s->nnodes;
	for (size_t i = 0; i < s->npsamples; i++) {
		struct xl_psamp *x = &m->psamples[P + i];
		*x = s->psamples[i];
		x->thread += (uint32_t)T;
		x->node = x->node == XL_NONE ? XL_NONE : x->node + (int32_t)N;
		x->t_ns = shifted(x->t_ns, p->shift_ns);
	}
	for (size_t i = 0; i < S; i++)
		if ((size_t)m->sframes[i].parent >= N)
			m->sframes[i].parent += (int32_t)s->nnodes;
	for (size_t i = 0; i < s->nsframes; i++) {
		struct xl_sframe *f = &m->sframes[S + i];
		*f = s->sframes[i];
		f->thread += (uint32_t)T;
		f->parent = frame_in(f->parent, s->nnodes, N, S);
		s->sframes[i].name = s->sframes[i].library = NULL; /* moved */
	}
	if (s->nsources) /* (memcpy's pointers must not be NULL even for no bytes) */
		memcpy(&m->sources[m->nsources], s->sources, s->nsources * sizeof(*s->sources));
	m->nsources += s->nsources;
	s->nsources = 0;
	m->nisamples += s->nisamples;
	m->npsamples += s->npsamples;
	m->nsframes += s->nsframes;
	m->isamples_matched += s->isamples_matched;
	m->isamples_lost += s->isamples_lost;
	m->isamples_dropped += s->isamples_dropped;
	m->psamples_missed += s->psamples_missed;
	return XL_OK;
}

/* The run's counters and time span. */
static void merge_counts(struct xl_model *m, const struct xl_model *s, const struct xl_part *p)
{
	m->total_events += s->total_events;
	m->total_timeline_events += s->total_timeline_events;
	m->total_dropped += s->total_dropped;
	m->more_calls += s->more_calls;
	m->more_nodes += s->more_nodes;
	m->threads_dropped += s->threads_dropped;
	m->threads_unplaced += s->threads_unplaced;
	m->unrecorded_events += s->unrecorded_events;
	m->open_exits += s->open_exits;
	int64_t full = shifted(s->timeline_full_ns, p->shift_ns);
	if (full >= 0 && (m->timeline_full_ns < 0 || full < m->timeline_full_ns))
		m->timeline_full_ns = full;
	if (shifted(s->last_ns, p->shift_ns) > m->last_ns)
		m->last_ns = shifted(s->last_ns, p->shift_ns);
}

int xl_proc_merge(struct xl_model *m, struct xl_model *s, uint32_t part, uint32_t process)
{
	struct xl_part *p = &m->parts[part];
	size_t N = m->nnodes, T = m->nthreads;
	if (merge_funcs(m, s, p) || merge_threads(m, s, p, part, process) || merge_allocs(m, s, p, N) ||
	    merge_samples(m, s, p, N, T))
		return XL_ENOMEM;
	m->nnodes += s->nnodes;
	merge_counts(m, s, p);
	return XL_OK;
}
