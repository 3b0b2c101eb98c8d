/*
 * samples.c - what the instruction samples of a capture (format 6) say:
 * why there are none when there are none, and, with the addresses the CLI
 * resolved after the run (samples.json, symbols.h), each function's
 * samples by line of its own code and by inlined function, and each call
 * path's samples (the sample's call chain matched to the thread's tree).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze_internal.h"
#include "symbols.h"
#include "xl_array.h"

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);
	return n ? n : "unknown error";
}

int xl_samples_unavailable(const struct xl_model *m, char *buf, size_t len)
{
	int e = m->sample_errno;
	char hint[160] = "";
	switch (m->sample_status) {
	case XL_SAMPLE_REFUSED:
		if (m->perf_paranoid != XL_PARANOID_UNKNOWN && m->perf_paranoid > 2)
			snprintf(hint, sizeof(hint),
				 "; kernel.perf_event_paranoid is %d, and a process may sample its own threads at 2 "
				 "or less",
				 m->perf_paranoid);
		else if (e == EACCES || e == EPERM || e == ENOSYS)
			snprintf(hint, sizeof(hint), "; a seccomp filter or the container's policy forbids it");
		snprintf(buf, len, "the kernel refused perf_event_open (%s: %s)%s", errno_name(e), strerror(e), hint);
		return 1;
	case XL_SAMPLE_NO_RING:
	case XL_SAMPLE_NO_FDTABLE:
		snprintf(buf, len,
			 m->sample_status == XL_SAMPLE_NO_RING
				 ? "the sampler's ring could not be mapped (%s: %s; locked memory: "
				   "kernel.perf_event_mlock_kb and ulimit -l)"
				 : "the runtime could not open its samplers apart from the program's descriptors "
				   "(close_range: %s: %s; Linux 5.9 or later)",
			 errno_name(e), strerror(e));
		return 1;
	default: return 0;
	}
}

/* ---- samples.json: lines, inlined functions, call paths */

/* (parent node, XRay id) -> child node, for the walk of a chain down a
 * thread's tree: open addressing, twice the nodes.  And every node by
 * (XRay id, index), for the chains that are looked for as a path's end. */
struct kids {
	struct kid {
		int32_t parent, child;
		int32_t xray;
	} * v;
	size_t mask;
	int32_t *by_func;
	size_t nb; /* nodes in by_func: all but the roots */
	const struct xl_model *m;
};

static size_t kid_slot(const struct kids *k, int32_t parent, int32_t xray)
{
	uint64_t h =
		((uint64_t)(uint32_t)parent * 0x9e3779b97f4a7c15u) ^ ((uint64_t)(uint32_t)xray * 0xc2b2ae3d27d4eb4fu);
	return (size_t)(h ^ (h >> 29)) & k->mask;
}

static const struct xl_model *sort_model; /* cmp_by_func's (qsort has no context) */

static int cmp_by_func(const void *a, const void *b)
{
	const struct xl_model *m = sort_model;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	int32_t fx = m->funcs[m->nodes[x].func].xray_id, fy = m->funcs[m->nodes[y].func].xray_id;
	if (fx != fy)
		return fx < fy ? -1 : 1;
	return (x > y) - (x < y);
}

static int kids_build(struct kids *k, const struct xl_model *m)
{
	size_t cap = 16;
	while (cap < 2 * m->nnodes + 2)
		cap *= 2;
	k->m = m;
	k->v = malloc(cap * sizeof(*k->v));
	k->by_func = malloc((m->nnodes + 1) * sizeof(*k->by_func));
	if (!k->v || !k->by_func)
		return XL_ENOMEM;
	k->mask = cap - 1;
	for (size_t i = 0; i < cap; i++)
		k->v[i].child = XL_NONE;
	size_t nb = 0;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		if (n->parent == XL_NONE)
			continue;
		int32_t x = m->funcs[n->func].xray_id;
		size_t s = kid_slot(k, n->parent, x);
		while (k->v[s].child != XL_NONE)
			s = (s + 1) & k->mask;
		k->v[s] = (struct kid){n->parent, (int32_t)i, x};
		k->by_func[nb++] = (int32_t)i;
	}
	sort_model = m;
	qsort(k->by_func, nb, sizeof(*k->by_func), cmp_by_func);
	k->by_func[nb] = XL_NONE;
	k->nb = nb;
	return XL_OK;
}

static int32_t kid(const struct kids *k, int32_t parent, int32_t xray)
{
	for (size_t s = kid_slot(k, parent, xray); k->v[s].child != XL_NONE; s = (s + 1) & k->mask)
		if (k->v[s].parent == parent && k->v[s].xray == xray)
			return k->v[s].child;
	return XL_NONE;
}

/* The traced functions of a sample's chain, innermost first, into seq
 * (at most XL_ISAMPLE_MAX_IPS * 2).  A return address in function F at a
 * direct call of G, below which the chain shows another function than G,
 * lost G's frame: the callee had not set up its frame pointer yet (its
 * first instructions, its last), or a library without frame pointers
 * left the walk at its caller's frame.  G is put back, and marked in put
 * (1): G may also have left by a tail call (jmp), which XRay records as
 * its exit, and then the tree has G's callee under F (match_chain). */
static size_t chain_funcs(const struct xl_resolved *r, const struct xl_isamp *s, int32_t *seq, unsigned char *put)
{
	size_t n = 0;
	const struct xl_addr *leaf = xl_addr_find(r->ips, r->nips, s->ips[0]);
	int32_t below = leaf ? leaf->func : 0;
	if (below) {
		put[n] = 0;
		seq[n++] = below;
	}
	for (uint32_t i = 1; i < s->nips; i++) {
		const struct xl_addr *a = xl_addr_find(r->rets, r->nrets, s->ips[i]);
		if (!a)
			continue;
		if (a->calls && a->calls != below) {
			put[n] = 1;
			seq[n++] = a->calls;
		}
		if (a->func) {
			put[n] = 0;
			seq[n++] = a->func;
		}
		below = a->func;
	}
	return n;
}

/* The node of a chain (innermost first) in its thread's tree: walked down
 * from the root; a chain that does not start at the root (cut by the
 * kernel's depth limit, or by a library without frame pointers above
 * it) is looked for as the end of exactly one path.  XL_NONE otherwise. */
static int32_t match(const struct xl_model *m, const struct kids *k, const struct xl_thread *t, const int32_t *seq,
		     size_t n)
{
	if (!n)
		return t->root; /* no traced frame: the thread's root */
	int32_t cur = t->root;
	size_t i = n;
	while (i > 0) {
		int32_t c = kid(k, cur, seq[i - 1]);
		if (c == XL_NONE) {
			c = kid(k, cur, XL_FUNC_MORE); /* a bounded tree's subtree */
			if (c != XL_NONE)
				return c;
			break;
		}
		cur = c;
		i--;
	}
	if (i == 0)
		return cur;
	/* The nodes of the innermost function (by_func is sorted by XRay id,
	 * then index: the thread's are one run of it). */
	int32_t found = XL_NONE;
	size_t lo = 0, hi = k->nb;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int32_t x = k->by_func[mid];
		int32_t fx = m->funcs[m->nodes[x].func].xray_id;
		if (fx < seq[0] || (fx == seq[0] && x < t->root))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t c = lo; c < k->nb; c++) {
		int32_t at = k->by_func[c];
		if (m->funcs[m->nodes[at].func].xray_id != seq[0] || at >= t->root + (int32_t)t->node_count)
			break;
		size_t j = 0;
		for (int32_t p = at; j < n && p != XL_NONE && m->nodes[p].parent != XL_NONE;
		     p = m->nodes[p].parent, j++)
			if (m->funcs[m->nodes[p].func].xray_id != seq[j])
				break;
		if (j < n)
			continue;
		if (found != XL_NONE)
			return XL_NONE; /* several paths end so */
		found = at;
	}
	return found;
}

/* A sample's node: its chain with the frames chain_funcs put back, else,
 * when no path has them all, without them (a tail call's caller). */
static int32_t match_chain(const struct xl_model *m, const struct kids *k, const struct xl_thread *t, int32_t *seq,
			   const unsigned char *put, size_t n)
{
	int32_t node = match(m, k, t, seq, n);
	if (node != XL_NONE)
		return node;
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!put[i])
			seq[kept++] = seq[i];
	return kept < n ? match(m, k, t, seq, kept) : XL_NONE;
}

/* One sample's (function, line), or (function, inlined function): sorted,
 * each run of equal keys is one entry of the function's list. */
struct fkey {
	int32_t func;
	int line;
	const char *name; /* an inlined function; NULL for a line */
};

static int cmp_fkey(const void *a, const void *b)
{
	const struct fkey *x = a, *y = b;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->name && y->name ? strcmp(x->name, y->name) : 0;
}

static int cmp_inl(const void *a, const void *b)
{
	const struct xl_inl_count *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The keys (all lines, or all inlined functions) into the functions'
 * lists: lines ascending, inlined functions most samples first. */
static int count_keys(struct xl_model *m, struct fkey *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_fkey);
	for (size_t i = 0; i < n;) {
		struct xl_func *f = &m->funcs[v[i].func];
		int inl = v[i].name != NULL;
		size_t end = i, distinct = 0;
		for (; end < n && v[end].func == v[i].func; end++)
			distinct += end == i || cmp_fkey(&v[end], &v[end - 1]) != 0;
		if (inl ? !(f->inlined = calloc(distinct, sizeof(*f->inlined)))
			: !(f->lines = calloc(distinct, sizeof(*f->lines))))
			return XL_ENOMEM;
		for (size_t k = i; k < end; k++) {
			int fresh = k == i || cmp_fkey(&v[k], &v[k - 1]) != 0;
			if (!inl) {
				if (fresh)
					f->lines[f->nlines++].line = v[k].line;
				f->lines[f->nlines - 1].samples++;
				continue;
			}
			if (fresh && !(f->inlined[f->ninlined++].name = strdup(v[k].name)))
				return XL_ENOMEM;
			f->inlined[f->ninlined - 1].samples++;
		}
		if (inl)
			qsort(f->inlined, f->ninlined, sizeof(*f->inlined), cmp_inl);
		i = end;
	}
	return XL_OK;
}

/* The source ranges move from the loaded file into the model. */
static int take_sources(struct xl_model *m, struct xl_resolved *r)
{
	m->sources = calloc(r->nsrc + 1, sizeof(*m->sources));
	if (!m->sources)
		return XL_ENOMEM;
	for (size_t i = 0; i < r->nsrc; i++) {
		struct xl_src_range *s = &r->src[i];
		m->sources[m->nsources++] = (struct xl_source){s->file, s->first, s->lines, s->nlines};
		s->file = NULL;
		s->lines = NULL;
		s->nlines = 0;
	}
	return XL_OK;
}

/* The inline chains of each sampled line ("outer > inner"): the keys
 * (function, line, chain), sorted, onto the lines count_keys made. */
static int attach_chains(struct xl_model *m, struct fkey *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_fkey);
	for (size_t i = 0; i < n;) {
		struct xl_func *f = &m->funcs[v[i].func];
		size_t end = i, distinct = 0;
		for (; end < n && v[end].func == v[i].func && v[end].line == v[i].line; end++)
			distinct += end == i || cmp_fkey(&v[end], &v[end - 1]) != 0;
		struct xl_line_count *l = f->lines;
		while (l < f->lines + f->nlines && l->line != v[i].line)
			l++;
		if (l == f->lines + f->nlines || !(l->chains = calloc(distinct, sizeof(*l->chains))))
			return XL_ENOMEM; /* (every key's line is there) */
		for (size_t k = i; k < end; k++) {
			if ((k == i || cmp_fkey(&v[k], &v[k - 1]) != 0) &&
			    !(l->chains[l->nchains++].name = strdup(v[k].name)))
				return XL_ENOMEM;
			l->chains[l->nchains - 1].samples++;
		}
		qsort(l->chains, l->nchains, sizeof(*l->chains), cmp_inl);
		i = end;
	}
	return XL_OK;
}

/* An address's inline chain as one string, outermost first, made once
 * per address (memo, parallel to r->ips). */
static const char *chain_text(const struct xl_resolved *r, const struct xl_addr *leaf, char **memo)
{
	char **slot = &memo[leaf - r->ips];
	if (*slot)
		return *slot;
	size_t len = 1;
	for (size_t j = 0; j < leaf->ninl; j++)
		len += strlen(leaf->inl[j]) + 3;
	char *t = malloc(len);
	if (!t)
		return NULL;
	t[0] = 0;
	for (size_t j = 0; j < leaf->ninl; j++) {
		if (j)
			strcat(t, " > ");
		strcat(t, leaf->inl[j]);
	}
	return *slot = t;
}

/* The sampled frames under construction: an open-addressing table of
 * (parent, kind, name, library) to 1 + the frame's index (0: empty). */
struct sfindex {
	int32_t *slot;
	size_t cap; /* a power of two, at least twice the frames */
	size_t frames_cap;
};

static uint64_t sf_hash(int32_t parent, uint32_t kind, const char *name, const char *lib)
{
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)(uint32_t)parent << 2 | kind);
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	for (const char *c = lib ? lib : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return h ^ h >> 29;
}

static int sf_same(const struct xl_sframe *f, int32_t parent, uint32_t kind, const char *name, const char *lib)
{
	return f->parent == parent && f->kind == kind && strcmp(f->name, name) == 0 &&
	       (f->library && lib ? strcmp(f->library, lib) == 0 : f->library == lib);
}

static size_t sf_find(const struct xl_model *m, const struct sfindex *ix, int32_t parent, uint32_t kind,
		      const char *name, const char *lib)
{
	size_t i = sf_hash(parent, kind, name, lib) & (ix->cap - 1);
	while (ix->slot[i] && !sf_same(&m->sframes[ix->slot[i] - 1], parent, kind, name, lib))
		i = (i + 1) & (ix->cap - 1);
	return i;
}

static int sf_rehash(const struct xl_model *m, struct sfindex *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 256;
	int32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return XL_ENOMEM;
	free(ix->slot);
	ix->slot = slot;
	ix->cap = cap;
	for (size_t k = 0; k < m->nsframes; k++) {
		const struct xl_sframe *f = &m->sframes[k];
		slot[sf_find(m, ix, f->parent, f->kind, f->name, f->library)] = (int32_t)k + 1;
	}
	return XL_OK;
}

/* The id (m->nnodes + index) of the sampled frame (parent, kind, name,
 * library), made when new; -1 out of memory. */
static int32_t sframe(struct xl_model *m, struct sfindex *ix, int32_t parent, uint32_t kind, const char *name,
		      const char *lib)
{
	if ((m->nsframes + 1) * 2 > ix->cap && sf_rehash(m, ix) != XL_OK)
		return -1;
	size_t i = sf_find(m, ix, parent, kind, name, lib);
	if (!ix->slot[i]) {
		if (xl_grow((void **)&m->sframes, &ix->frames_cap, m->nsframes + 1, sizeof(*m->sframes)))
			return -1;
		const struct xl_tnode *n = &m->nodes[parent < (int32_t)m->nnodes ? parent : 0];
		uint32_t thread = parent < (int32_t)m->nnodes ? n->thread : m->sframes[parent - m->nnodes].thread;
		struct xl_sframe *f = &m->sframes[m->nsframes];
		*f = (struct xl_sframe){parent, thread, kind, strdup(name), lib ? strdup(lib) : NULL, 0, 0};
		m->nsframes++;
		if (!f->name || (lib && !f->library))
			return -1; /* (freed with the model) */
		ix->slot[i] = (int32_t)m->nsframes;
	}
	return (int32_t)m->nnodes + ix->slot[i] - 1;
}

/* The library a sampled frame is named with: the executable's own code
 * that is exaloop's runtime (its hot path and trampolines, XRay's
 * compiler-rt) is "(exaloop)": the profiler's own time inside a frame,
 * which a reader must not take for the program's.  The resolver marks the
 * runtime's local functions (counted_entry, node_add, ...: samples.json
 * "runtime"); the names cover its global ones and older samples.json. */
static const char *frame_library(const struct xl_addr *leaf)
{
	static const char *const own[] = {"rt__", "__wrap___xray_", "__xray_", "__exaloop", "_ZN6__xray"};
	if (leaf->runtime && !leaf->library)
		return "(exaloop)";
	if (leaf->library || !leaf->symbol)
		return leaf->library;
	for (size_t i = 0; i < XL_ARRAY_SIZE(own); i++)
		if (strncmp(leaf->symbol, own[i], strlen(own[i])) == 0)
			return "(exaloop)";
	return NULL;
}

/* The sampled frames of a sample matched to node: the inline chain of its
 * instruction when that is in the node's own function, or the library or
 * untraced function it is in; the innermost one counts the sample. */
static int sample_frames(struct xl_model *m, struct sfindex *ix, struct xl_isamp *s, const struct xl_addr *leaf)
{
	int32_t node = s->node;
	s->frame = node;
	if (!leaf)
		return XL_OK;
	const struct xl_tnode *n = &m->nodes[node];
	int32_t id = node;
	if (!leaf->func) {
		id = sframe(m, ix, node, XL_SF_LIBRARY, leaf->symbol ? leaf->symbol : "??", frame_library(leaf));
	} else if (leaf->ninl && n->func != XL_NONE && m->funcs[n->func].xray_id == leaf->func) {
		for (size_t j = 0; j < leaf->ninl && id >= 0; j++)
			id = sframe(m, ix, id, XL_SF_INLINED, leaf->inl[j], NULL);
	}
	if (id < 0)
		return XL_ENOMEM;
	s->frame = id;
	if (id >= (int32_t)m->nnodes)
		m->sframes[id - m->nnodes].samples++;
	return XL_OK;
}

/* The traced node a sampled frame is in. */
static int32_t traced_of(const struct xl_model *m, int32_t p)
{
	while (p >= (int32_t)m->nnodes)
		p = m->sframes[p - m->nnodes].parent;
	return p;
}

/* A gap between two of a thread's samples longer than this is a wait (a
 * sleep, I/O, a lock), not the scheduler's: a runnable thread waits a few
 * time slices at most. */
#define RUNNABLE_GAP_NS 50000000
/* Gaps a node needs for a stretch of its own; fewer: its thread's. */
#define STRETCH_MIN_GAPS 8

struct stretch {
	double *gap; /* [nnodes + nthreads]: summed gaps, a node's then a thread's */
	uint64_t *n; /* their counts */
};

/* The gaps between a thread's consecutive samples (waits left out), to
 * both samples' node when they have the same one, and to the thread. */
static int stretch_gaps(const struct xl_model *m, struct stretch *st)
{
	size_t slots = m->nnodes + m->nthreads + 1;
	st->gap = calloc(slots, sizeof(*st->gap));
	st->n = calloc(slots, sizeof(*st->n));
	int64_t *last = calloc(m->nthreads + 1, sizeof(*last));
	int32_t *at = malloc((m->nthreads + 1) * sizeof(*at));
	int rc = st->gap && st->n && last && at ? XL_OK : XL_ENOMEM;
	for (size_t i = 0; rc == XL_OK && i < m->nisamples; i++) {
		const struct xl_isamp *x = &m->isamples[i];
		int64_t gap = last[x->thread] ? x->t_ns - last[x->thread] : 0;
		int same = gap > 0 && x->node != XL_NONE && at[x->thread] == x->node;
		last[x->thread] = x->t_ns;
		at[x->thread] = x->node;
		if (gap <= 0 || gap > RUNNABLE_GAP_NS)
			continue;
		st->gap[m->nnodes + x->thread] += (double)gap;
		st->n[m->nnodes + x->thread]++;
		if (same) {
			st->gap[x->node] += (double)gap;
			st->n[x->node]++;
		}
	}
	free(last);
	free(at);
	return rc;
}

/* How much elapsed time a sample of node p stood for while its thread
 * ran or was runnable, over the sampling period (1: a quiet machine; 2:
 * the thread shared its core with another): from the gaps between the
 * node's own consecutive samples (the load when it ran), else its
 * thread's.  At least 1. */
static double stretch_of(const struct xl_model *m, const struct stretch *st, int32_t p, double period)
{
	size_t k = st->n[p] >= STRETCH_MIN_GAPS ? (size_t)p : m->nnodes + m->nodes[p].thread;
	double l = st->n[k] && period > 0 ? st->gap[k] / ((double)st->n[k] * period) : 1.0;
	return l > 1.0 ? l : 1.0;
}

/* Each sampled frame's time: its samples x the sampling period x the
 * stretch of its traced node.  The samples are of CPU time (a cpu-clock
 * event): a frame gets the time its code ran, plus its share of the time
 * the thread waited for a core then, and a traced frame that also waited
 * (a sleep, a lock, I/O) keeps that wait as its own.  The frames of a
 * node never take more than its exact self time: scaled down to fit when
 * the counts' noise or exact timing's own bias (a short callee's work
 * measured in its caller) would have them do so. */
static int estimate_sframes(struct xl_model *m)
{
	if (!m->nsframes)
		return XL_OK;
	double per = m->sample_rate ? (double)(1000000000u / m->sample_rate) : 0;
	struct stretch st = {NULL, NULL};
	double *sum = calloc(m->nnodes, sizeof(*sum));
	int rc = sum ? stretch_gaps(m, &st) : XL_ENOMEM;
	for (size_t i = 0; rc == XL_OK && i < m->nsframes; i++) {
		int32_t p = traced_of(m, m->sframes[i].parent);
		sum[p] += per * stretch_of(m, &st, p, per) * (double)m->sframes[i].samples;
	}
	for (size_t i = 0; rc == XL_OK && i < m->nsframes; i++) {
		struct xl_sframe *f = &m->sframes[i];
		int32_t p = traced_of(m, f->parent);
		double self = m->nodes[p].self_ns > 0 ? (double)m->nodes[p].self_ns : 0;
		double scale = sum[p] > self ? self / sum[p] : 1.0;
		f->est_ns = (int64_t)(per * stretch_of(m, &st, p, per) * (double)f->samples * scale);
	}
	free(sum);
	free(st.gap);
	free(st.n);
	return rc;
}

/* Every sample's line, inlined functions and call path. */
static int attribute(struct xl_model *m, const struct xl_resolved *r, const struct kids *k)
{
	struct fkey *fl = malloc((m->nisamples + 1) * sizeof(*fl));
	struct fkey *fn = NULL;
	size_t nfl = 0, nfn = 0, fncap = 0;
	int32_t *seq = malloc(2 * XL_ISAMPLE_MAX_IPS * sizeof(*seq));
	unsigned char put[2 * XL_ISAMPLE_MAX_IPS];
	struct fkey *fc = malloc((m->nisamples + 1) * sizeof(*fc));
	size_t nfc = 0;
	char **memo = calloc(r->nips + 1, sizeof(*memo));
	struct sfindex ix = {NULL, 0, 0};
	int rc = fl && seq && fc && memo ? XL_OK : XL_ENOMEM;
	for (size_t i = 0; rc == XL_OK && i < m->nisamples; i++) {
		struct xl_isamp *s = &m->isamples[i];
		const struct xl_addr *leaf = xl_addr_find(r->ips, r->nips, s->ips[0]);
		int32_t f = leaf && leaf->func ? xl_func_index(m, leaf->func) : XL_NONE;
		if (f != XL_NONE) {
			m->funcs[f].isamples++;
			fl[nfl++] = (struct fkey){f, leaf->line, NULL};
			const char *chain = leaf->ninl ? chain_text(r, leaf, memo) : NULL;
			if (leaf->ninl && !chain) {
				rc = XL_ENOMEM;
				break;
			}
			if (chain)
				fc[nfc++] = (struct fkey){f, leaf->line, chain};
			for (size_t j = 0; j < leaf->ninl; j++) {
				int seen = 0;
				for (size_t q = 0; q < j && !seen; q++)
					seen = strcmp(leaf->inl[q], leaf->inl[j]) == 0;
				if (seen)
					continue;
				if (xl_grow((void **)&fn, &fncap, nfn + 1, sizeof(*fn))) {
					rc = XL_ENOMEM;
					break;
				}
				fn[nfn++] = (struct fkey){f, 0, leaf->inl[j]};
			}
		}
		s->node = match_chain(m, k, &m->threads[s->thread], seq, put, chain_funcs(r, s, seq, put));
		if (s->node != XL_NONE) {
			m->nodes[s->node].isamples++;
			m->isamples_matched++;
			rc = sample_frames(m, &ix, s, leaf);
		}
	}
	free(ix.slot);
	if (rc == XL_OK)
		rc = estimate_sframes(m);
	if (rc == XL_OK)
		rc = count_keys(m, fl, nfl);
	if (rc == XL_OK)
		rc = count_keys(m, fn, nfn);
	if (rc == XL_OK)
		rc = attach_chains(m, fc, nfc);
	for (size_t i = 0; memo && i < r->nips; i++)
		free(memo[i]);
	free(memo);
	free(fc);
	free(fl);
	free(fn);
	free(seq);
	return rc;
}

int xl_samples_analyze(struct xl_model *m, const char *dir, const char *build_id)
{
	if (!m->nisamples)
		return XL_OK;
	char path[PATH_MAX], err[256];
	snprintf(path, sizeof(path), "%s/%s", dir, XL_SAMPLES_FILE);
	struct xl_resolved r;
	int rc = xl_samples_load_json(path, &r, err, sizeof(err));
	if (rc == XL_ENOMEM)
		return rc;
	if (rc != XL_OK) {
		snprintf(m->samples_problem, sizeof(m->samples_problem), "%s",
			 access(path, F_OK) == 0 ? err : "the capture has no samples.json");
		return XL_OK;
	}
	if (build_id[0] && r.build_id[0] && strcmp(build_id, r.build_id) != 0) {
		snprintf(m->samples_problem, sizeof(m->samples_problem),
			 "samples.json belongs to another build (its build id %.12s..., the captured executable's "
			 "%.12s...)",
			 r.build_id, build_id);
		xl_resolved_release(&r);
		return XL_OK;
	}
	struct kids k = {NULL, 0, NULL, 0, m};
	m->resolved = 1;
	rc = kids_build(&k, m);
	if (rc == XL_OK)
		rc = attribute(m, &r, &k);
	if (rc == XL_OK)
		rc = take_sources(m, &r);
	free(k.v);
	free(k.by_func);
	xl_resolved_release(&r);
	return rc;
}

const char *xl_source_line(const struct xl_model *m, const char *file, int line)
{
	for (size_t i = 0; file && i < m->nsources; i++) {
		const struct xl_source *s = &m->sources[i];
		if (line >= s->first && (size_t)(line - s->first) < s->nlines && strcmp(s->file, file) == 0)
			return s->lines[line - s->first];
	}
	return NULL;
}
