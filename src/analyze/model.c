/*
 * model.c - xl_model_load(): capture + run metadata + symbols -> model.
 *
 * Derived numbers are computed here once, so every emitter shows the same
 * values: self = total - sum(children's total) per call path; a function's
 * total counts only its outermost active frames (recursion is not counted
 * twice); the sum of self over a tree equals its root's total.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze_internal.h"
#include "fileio.h"
#include "shortname.h"
#include "symbols.h"
#include "xl_array.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char **json_strv(json_t *arr)
{
	size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
	char **v = calloc(n + 1, sizeof(char *));
	if (!v)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(arr, i));
		if (s && !(v[k++] = strdup(s))) {
			while (k > 0)
				free(v[--k]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static int64_t json_i64_or(json_t *o, const char *key, int64_t dflt)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : dflt;
}

/* run.json is written by the CLI after the program ends; a capture made by
 * hand (or a crashed CLI) may lack it, so every field is optional.  Out of
 * memory is not a missing field: XL_ENOMEM (what was set is the model's). */
static int load_run(struct xl_model *m, const char *dir)
{
	struct xl_run *r = &m->run;
	r->compile_time_ns = r->app_time_ns = -1;
	r->overhead_ns_per_call = -1;
	r->attached_at_ns = -1;
	r->capture_dir = strdup(dir);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/run.json", dir);
	json_error_t jerr;
	int fd = xl_open_regular(path); /* a FIFO or device there must not hang us */
	int oom = 0;
	json_t *o = fd >= 0 ? xl_json_loadfd(fd, 0, &jerr, &oom) : NULL;
	if (fd >= 0)
		close(fd);
	if (oom)
		return XL_ENOMEM;
	if (!json_is_object(o)) {
		json_decref(o);
		r->command = calloc(1, sizeof(char *));
		r->args = calloc(1, sizeof(char *));
		r->include = calloc(1, sizeof(char *));
		r->untraced_libs = calloc(1, sizeof(char *));
		return r->capture_dir && r->command && r->args && r->include && r->untraced_libs ? XL_OK : XL_ENOMEM;
	}
	const char *program = json_string_value(json_object_get(o, "program"));
	const char *executable = json_string_value(json_object_get(o, "executable"));
	const char *started_at = json_string_value(json_object_get(o, "started_at"));
	r->program = dup_or_null(program);
	r->executable = dup_or_null(executable);
	r->started_at = dup_or_null(started_at);
	r->command = json_strv(json_object_get(o, "command"));
	r->args = json_strv(json_object_get(o, "args"));
	r->include = json_strv(json_object_get(o, "include"));
	r->untraced_libs = json_strv(json_object_get(o, "untraced_libraries"));
	if (!r->capture_dir || (program && !r->program) || (executable && !r->executable) ||
	    (started_at && !r->started_at) || !r->command || !r->args || !r->include || !r->untraced_libs) {
		json_decref(o);
		return XL_ENOMEM;
	}
	json_t *es = json_object_get(o, "exit_status");
	if (json_is_integer(es)) {
		r->has_exit_status = 1;
		r->exit_status = (int)json_integer_value(es);
	}
	r->signal = (int)json_i64_or(o, "signal", 0);
	r->compile_time_ns = json_i64_or(o, "compile_time_ns", -1);
	r->app_time_ns = json_i64_or(o, "app_time_ns", -1);
	r->attached_at_ns = json_i64_or(o, "attached_at_ns", -1);
	/* The kernel's peak RSS of the child (wait4), for captures whose
	 * runtime could not read VmHWM at the end (crash, kill). */
	int64_t ru_peak = json_i64_or(o, "peak_rss_rusage", 0);
	if ((m->peak_rss == XL_UNAVAILABLE || m->peak_rss <= 0) && ru_peak > 0)
		m->peak_rss = ru_peak;
	json_t *ov = json_object_get(o, "overhead_ns_per_call");
	if (json_is_number(ov))
		r->overhead_ns_per_call = json_number_value(ov);
	json_decref(o);
	return XL_OK;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The distinct XRay ids of nodes, per-function tables and allocations
 * without a node, sorted, into *ids (malloc'd) and *u. */
static int distinct_ids(const struct xl_model *m, const struct xl_loader *ld, int32_t **ids, size_t *u)
{
	int32_t *v = malloc((m->nnodes + ld->nfs + ld->nfa + 1) * sizeof(int32_t));
	if (!v)
		return XL_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->nodes[i].parent != XL_NONE)
			v[n++] = ld->node_xray[i];
	for (size_t i = 0; i < ld->nfs; i++)
		v[n++] = ld->fs[i].xray_id;
	for (size_t i = 0; i < ld->nfa; i++)
		v[n++] = ld->fa[i].func;
	qsort(v, n, sizeof(int32_t), cmp_i32);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	*ids = v;
	*u = k;
	return XL_OK;
}

/* The capture's symbols.json into *tab (*have: 1 when it is there and
 * of the captured build; else why not in ld->symbols_problem, when there
 * are functions to name).  XL_OK or XL_ENOMEM. */
static int capture_symbols(const struct xl_model *m, struct xl_loader *ld, const char *dir, struct xl_symtab *tab,
			   int *have)
{
	char path[PATH_MAX], serr[256];
	snprintf(path, sizeof(path), "%s/symbols.json", dir);
	/* A forked child's or an exec'd image's capture (a subdirectory) uses
	 * the run's symbols.json, one level up (the build id check below still
	 * refuses it for an image of another executable). */
	if ((m->image || m->fork_child) && access(path, F_OK) != 0)
		snprintf(path, sizeof(path), "%s/../symbols.json", dir);
	int sym_rc = xl_symbols_load_json(path, tab, serr, sizeof(serr));
	if (sym_rc == XL_ENOMEM) /* not a missing or broken file: no model */
		return XL_ENOMEM;
	*have = sym_rc == XL_OK;
	if (!*have && m->nfuncs > 0)
		snprintf(ld->symbols_problem, sizeof(ld->symbols_problem), "%s",
			 access(path, F_OK) == 0 ? serr : "the capture has no symbols.json");
	/* A symbols.json from another build would put wrong names on every
	 * function: names by XRay id are honest, those are not. */
	if (*have && ld->build_id[0] && tab->build_id[0] && strcmp(ld->build_id, tab->build_id) != 0) {
		snprintf(ld->symbols_problem, sizeof(ld->symbols_problem),
			 "symbols.json belongs to another build (its build id %.12s..., the captured "
			 "executable's %.12s...)",
			 tab->build_id, ld->build_id);
		ld->symbols_mismatch = 1;
		xl_symtab_release(tab);
		*have = 0;
	}
	return XL_OK;
}

/* funcs[i] for ids[i]: its name, file and line from tab (NULL: by XRay
 * id, "#N"), and the short names.  XL_OK or XL_ENOMEM. */
static int name_funcs(struct xl_model *m, const int32_t *ids, const struct xl_symtab *tab)
{
	for (size_t i = 0; i < m->nfuncs; i++) {
		struct xl_func *f = &m->funcs[i];
		f->xray_id = ids[i];
		const struct xl_symbol *s = tab ? xl_symtab_find(tab, ids[i]) : NULL;
		if (ids[i] == XL_FUNC_MORE) {
			f->name = strdup("(more call paths)");
			s = NULL;
		} else if (s && s->name) {
			f->name = strdup(s->name);
			f->file = dup_or_null(s->file);
			f->line = s->line;
		} else {
			char buf[32];
			snprintf(buf, sizeof(buf), "#%d", ids[i]);
			f->name = strdup(buf);
		}
		if (!f->name || (s && s->file && !f->file))
			return XL_ENOMEM;
	}
	return xl_short_names((const char *const *)&m->funcs[0].name, &m->funcs[0].short_name, m->nfuncs,
			      sizeof(m->funcs[0])) == XL_OK
		       ? XL_OK
		       : XL_ENOMEM;
}

/* XRay ids -> indices into funcs[] (ids: the sorted distinct ids) in the
 * nodes, the per-function tables (now the model's fstats) and the
 * allocations without a node (now the model's).  XL_OK or XL_ENOMEM. */
static int map_ids(struct xl_model *m, struct xl_loader *ld, const int32_t *ids)
{
	size_t u = m->nfuncs;
	for (size_t i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].parent == XL_NONE)
			continue;
		int32_t *hit = bsearch(&ld->node_xray[i], ids, u, sizeof(int32_t), cmp_i32);
		m->nodes[i].func = (int32_t)(hit - ids);
	}
	m->fstats = calloc(ld->nfs ? ld->nfs : 1, sizeof(*m->fstats));
	if (!m->fstats)
		return XL_ENOMEM;
	for (size_t i = 0; i < ld->nfs; i++) {
		const struct xl_fstat_raw *r = &ld->fs[i];
		struct xl_thread *t = &m->threads[r->thread];
		if (!t->nfstat)
			t->fstat_first = i;
		t->nfstat++;
		int32_t *hit = bsearch(&r->xray_id, ids, u, sizeof(int32_t), cmp_i32);
		struct xl_fstat *d = &m->fstats[i];
		d->func = (int32_t)(hit - ids);
		d->calls = r->calls;
		d->self_ns = r->self_ticks >= 0 ? xl_clamp_ns((double)r->self_ticks / m->ticks_per_ns)
						: -xl_clamp_ns(-(double)r->self_ticks / m->ticks_per_ns);
		d->total_ns = xl_clamp_ns((double)r->total_ticks / m->ticks_per_ns);
	}
	m->nfstats = ld->nfs;
	for (size_t i = 0; i < ld->nfa; i++) {
		int32_t *hit = bsearch(&ld->fa[i].func, ids, u, sizeof(int32_t), cmp_i32);
		ld->fa[i].func = (int32_t)(hit - ids);
	}
	m->fallocs = ld->fa; /* the model owns them now */
	m->nfallocs = ld->nfa;
	ld->fa = NULL;
	return XL_OK;
}

/*
 * --timing=sampled: the runtime counted calls but kept no time, so each
 * node's time is what the position samples saw of it.  A thread's samples
 * share the span they cover (first to last, plus one period) equally:
 * each is a look at where the thread was at a moment that does not depend
 * on what it does, whether it ran or waited (elapsed time, as in exact
 * mode).  Not the time since the previous sample: a control thread that
 * a busy machine wakes late would give the one call it then sees the
 * whole gap.  Into ld->node_ticks as the nodes' own time, in ns;
 * build_tree sums children in.
 */
struct span {
	int64_t first, last;
	uint64_t n;
};

static void sampled_self(struct xl_model *m, struct xl_loader *ld)
{
	double period = m->sample_rate ? 1e9 / m->sample_rate : 1e6;
	struct span *sp = calloc(m->nthreads ? m->nthreads : 1, sizeof(*sp));
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		ld->node_ticks[i] = 0;
	for (size_t i = 0; sp && i < m->npsamples; i++) {
		const struct xl_psamp *p = &m->psamples[i];
		if (p->thread >= m->nthreads)
			continue;
		struct span *s = &sp[p->thread];
		if (!s->n++)
			s->first = p->t_ns;
		s->last = p->t_ns;
	}
	for (size_t i = 0; sp && i < m->npsamples; i++) {
		const struct xl_psamp *p = &m->psamples[i];
		if (p->thread >= m->nthreads || p->node < 0 || (size_t)p->node >= m->nnodes)
			continue;
		const struct span *s = &sp[p->thread];
		double w = ((double)(s->last - s->first) + period) / (double)s->n;
		ld->node_ticks[p->node] += (uint64_t)w;
		m->nodes[p->node].psamples++;
		sum += w;
		n++;
	}
	m->psample_ns = n ? sum / (double)n : period;
	free(sp);
}

int64_t xl_sampled_err_ns(const struct xl_model *m, uint64_t k)
{
	/* the same time a sample as the estimate's (not the nominal period:
	 * missed rounds make each sample stand for more).  The normal
	 * approximation is too narrow for a few samples, and gives 0 for
	 * none: at least 3 samples' worth (for k = 0, the upper bound of a
	 * Poisson count at 95 %). */
	double w = 1.96 * sqrt((double)k);
	return xl_clamp_ns((w < 3.0 ? 3.0 : w) * m->psample_ns);
}

/* Distinct XRay ids (of nodes and of per-function tables: a function
 * called only on paths a bounded tree had no room for has no node) ->
 * funcs[], named from symbols.json when present. */
static int build_funcs(struct xl_model *m, struct xl_loader *ld, const char *dir)
{
	int32_t *ids;
	size_t u;
	if (distinct_ids(m, ld, &ids, &u) != XL_OK)
		return XL_ENOMEM;
	m->funcs = calloc(u ? u : 1, sizeof(struct xl_func));
	if (!m->funcs) {
		free(ids);
		return XL_ENOMEM;
	}
	m->nfuncs = u;
	struct xl_symtab tab;
	int have_syms = 0;
	int rc = capture_symbols(m, ld, dir, &tab, &have_syms);
	if (rc == XL_OK)
		rc = name_funcs(m, ids, have_syms ? &tab : NULL);
	if (have_syms)
		xl_symtab_release(&tab);
	if (rc == XL_OK)
		rc = map_ids(m, ld, ids);
	free(ids);
	return rc;
}

/* Children lists, times, self times and the function table. */
static int build_tree(struct xl_model *m, struct xl_loader *ld)
{
	/* Reverse order so that children end up in creation order. */
	for (size_t i = m->nnodes; i-- > 0;) {
		struct xl_tnode *nd = &m->nodes[i];
		if (nd->parent == XL_NONE)
			continue;
		nd->next_sibling = m->nodes[nd->parent].first_child;
		m->nodes[nd->parent].first_child = (int32_t)i;
	}
	int sampled = xl_timing_sampled(m);
	if (sampled)
		sampled_self(m, ld);
	for (size_t i = 0; i < m->nnodes; i++)
		m->nodes[i].total_ns = xl_clamp_ns((double)ld->node_ticks[i] / (sampled ? 1.0 : m->ticks_per_ns));
	/* A root's total is its children's; children come after parents, so a
	 * backwards pass sees every child before its parent.  (Sampled: a
	 * node's samples are its own time, the children's are added.) */
	for (size_t i = m->nnodes; i-- > 0;) {
		struct xl_tnode *nd = &m->nodes[i];
		int64_t kids = 0;
		for (int32_t c = nd->first_child; c != XL_NONE; c = m->nodes[c].next_sibling)
			kids = xl_add_ns(kids, m->nodes[c].total_ns); /* corrupt ticks can overflow */
		if (nd->parent == XL_NONE) /* samples outside every traced frame are not in it */
			nd->total_ns = kids < XL_MAX_NS ? kids : XL_MAX_NS; /* see xl_clamp_ns */
		else if (sampled)
			nd->total_ns = xl_add_ns(nd->total_ns, kids);
		nd->self_ns = nd->total_ns > kids ? nd->total_ns - kids : 0;
	}
	for (size_t t = 0; t < m->nthreads; t++) {
		m->threads[t].total_ns = m->nodes[m->threads[t].root].total_ns;
		m->more_calls += m->threads[t].more_calls;
		m->more_nodes += m->threads[t].more_nodes;
	}

	if (xl_funcs_for_thread(m, -1, m->funcs) != XL_OK)
		return XL_ENOMEM;
	if (m->allocs) {
		for (size_t i = 0; i < m->nnodes; i++)
			xl_alloc_add(&m->alloc_total, &m->node_alloc[i]);
		xl_alloc_add(&m->alloc_total, &m->alloc_na);
		xl_alloc_add(&m->alloc_total, &m->alloc_outside);
		m->alloc_total.peak_live = 0; /* paths' peaks do not add up */
	}
	m->timeline_full_ns = -1;
	for (size_t t = 0; t < m->nthreads; t++) {
		const struct xl_thread *th = &m->threads[t];
		m->total_events += th->events;
		m->total_timeline_events += th->timeline_events;
		m->total_dropped += th->dropped_events;
		if (th->dropped_events && (m->timeline_full_ns < 0 || th->dropped_from_ns < m->timeline_full_ns))
			m->timeline_full_ns = th->dropped_from_ns;
	}
	return XL_OK;
}

int xl_funcs_for_thread(const struct xl_model *m, int thread, struct xl_func *out)
{
	for (size_t f = 0; f < m->nfuncs; f++) {
		out[f] = m->funcs[f];
		out[f].calls = 0;
		out[f].self_ns = out[f].total_ns = 0;
		out[f].psamples = 0;
		memset(&out[f].alloc, 0, sizeof(out[f].alloc));
	}
	for (size_t i = 0; i < m->nfallocs; i++)
		if (thread < 0 || (size_t)thread == m->fallocs[i].thread)
			xl_alloc_add(&out[m->fallocs[i].func].alloc, &m->fallocs[i].a);
	/* The threads' per-function tables: the frames their trees do not
	 * hold ("(more call paths)" subtrees). */
	for (size_t t = 0; t < m->nthreads; t++) {
		const struct xl_thread *th = &m->threads[t];
		if (thread >= 0 && (size_t)thread != t)
			continue;
		for (size_t i = th->fstat_first; i < th->fstat_first + th->nfstat; i++) {
			const struct xl_fstat *fs = &m->fstats[i];
			struct xl_func *f = &out[fs->func];
			f->calls += fs->calls;
			f->self_ns = xl_add_ns(f->self_ns, fs->self_ns);
			f->total_ns = xl_add_ns(f->total_ns, fs->total_ns);
		}
	}
	/* Plus the trees: depth-first over each with a per-function count of
	 * active frames: only a frame with no active ancestor of the same
	 * function adds to that function's total.  (A subtree's frames in the
	 * table counted the tree's frames below them as open.) */
	uint32_t *active = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(uint32_t));
	int32_t *stack = malloc((m->nnodes + 1) * sizeof(int32_t));
	if (!active || !stack) {
		free(active);
		free(stack);
		return XL_ENOMEM;
	}
	for (size_t t = 0; t < m->nthreads; t++) {
		if (thread >= 0 && (size_t)thread != t)
			continue;
		int32_t root = m->threads[t].root;
		size_t sp = 0;
		int32_t cur = m->nodes[root].first_child;
		/* Walk: descend to first child, else next sibling, else climb. */
		while (cur != XL_NONE) {
			const struct xl_tnode *nd = &m->nodes[cur];
			struct xl_func *f = &out[nd->func];
			f->calls += nd->calls;
			f->self_ns = xl_add_ns(f->self_ns, nd->self_ns);
			f->psamples += nd->psamples;
			if (m->node_alloc)
				xl_alloc_add(&f->alloc, &m->node_alloc[cur]);
			if (active[nd->func]++ == 0)
				f->total_ns = xl_add_ns(f->total_ns, nd->total_ns);
			stack[sp++] = cur;
			int32_t next = nd->first_child;
			while (next == XL_NONE && sp > 0) {
				int32_t done = stack[--sp];
				active[m->nodes[done].func]--;
				next = m->nodes[done].next_sibling;
			}
			cur = next;
		}
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		if (out[f].self_ns < 0)
			out[f].self_ns = 0;   /* only from a corrupt or cut-off table */
		if (xl_func_is_more(&out[f])) /* not a function: its calls are the table's */
			out[f].calls = 0, out[f].self_ns = out[f].total_ns = 0;
		/* alloc.peak_live stays the largest of its paths' peaks (the
		 * max of xl_alloc_add): peaks do not add up, and the largest
		 * is a lower bound of what the function held at once. */
	}
	free(active);
	free(stack);
	return XL_OK;
}

int xl_model_load_capture(const char *dir, struct xl_model **out, char *err, size_t errlen)
{
	*out = NULL;
	struct xl_model *m = calloc(1, sizeof(*m));
	struct xl_loader ld = {0};
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return XL_ENOMEM;
	}
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_FILE) >= sizeof(path)) {
		snprintf(err, errlen, "capture path too long");
		free(m);
		return XL_EIO;
	}
	int rc = xl_capture_read(m, &ld, path, err, errlen);
	if (rc == XL_OK) {
		rc = load_run(m, dir);
		if (rc == XL_OK)
			rc = build_funcs(m, &ld, dir);
	}
	if (rc == XL_OK)
		rc = build_tree(m, &ld);
	if (rc == XL_OK)
		rc = xl_samples_analyze(m, dir, ld.build_id);
	if (rc == XL_OK)
		rc = xl_related_scan(m, dir);
	if (rc == XL_OK)
		rc = xl_call_cost(m);
	if (rc == XL_OK)
		rc = xl_warnings_build(m, &ld);
	free(ld.node_xray);
	free(ld.node_ticks);
	free(ld.fs);
	free(ld.fa);
	if (rc != XL_OK) {
		if (rc == XL_ENOMEM)
			snprintf(err, errlen, "out of memory while reading '%s'", path);
		xl_model_free(m);
		return rc;
	}
	*out = m;
	return XL_OK;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The process tree's (proctree.c): the processes, and the captures merged
 * into m with what they kept. */
static void free_tree(struct xl_model *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		free(m->procs[i].command);
		free(m->procs[i].exec_command);
	}
	free(m->procs);
	for (size_t i = 0; i < m->nparts; i++) {
		xl_model_free(m->parts[i].m);
		free(m->parts[i].ids);
		free(m->parts[i].fmap);
	}
	free(m->parts);
}

void xl_model_free(struct xl_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nfuncs; i++) {
		free(m->funcs[i].name);
		free(m->funcs[i].short_name);
		free(m->funcs[i].file);
		for (size_t k = 0; k < m->funcs[i].nlines; k++) {
			for (size_t c = 0; c < m->funcs[i].lines[k].nchains; c++)
				free(m->funcs[i].lines[k].chains[c].name);
			free(m->funcs[i].lines[k].chains);
		}
		free(m->funcs[i].lines);
		for (size_t k = 0; k < m->funcs[i].ninlined; k++)
			free(m->funcs[i].inlined[k].name);
		free(m->funcs[i].inlined);
	}
	for (size_t i = 0; i < m->nsources; i++) {
		free(m->sources[i].file);
		for (size_t k = 0; k < m->sources[i].nlines; k++)
			free(m->sources[i].lines[k]);
		free(m->sources[i].lines);
	}
	free(m->sources);
	for (size_t i = 0; i < m->nwarnings; i++) {
		free(m->warnings[i].kind);
		free(m->warnings[i].message);
	}
	free(m->warnings);
	for (size_t i = 0; i < m->nnotes; i++) {
		free(m->notes[i].kind);
		free(m->notes[i].message);
	}
	free(m->notes);
	free(m->related);
	free_tree(m);
	free(m->funcs);
	free(m->fstats);
	free(m->node_alloc);
	free(m->fallocs);
	free(m->nodes);
	free(m->threads);
	free(m->samples);
	free(m->isamples);
	free(m->psamples);
	for (size_t i = 0; i < m->nsframes; i++) {
		free(m->sframes[i].name);
		free(m->sframes[i].library);
	}
	free(m->sframes);
	for (size_t i = 0; i < m->nmaps; i++)
		free(m->maps[i].path);
	free(m->maps);
	free(m->run.program);
	free(m->run.executable);
	free(m->run.started_at);
	free(m->run.capture_dir);
	free_strv(m->run.command);
	free_strv(m->run.args);
	free_strv(m->run.include);
	free_strv(m->run.untraced_libs);
	if (m->map)
		munmap((void *)m->map, m->map_size);
	free(m);
}

const char *xl_mode_name(uint32_t mode)
{
	switch (mode) {
	case XL_MODE_ALL: return "all";
	case XL_MODE_MEMORY: return "memory";
	case XL_MODE_XRAY: return "xray";
	default: return "unknown";
	}
}

int xl_mode_parse(const char *name, uint32_t *mode)
{
	static const uint32_t modes[] = {XL_MODE_ALL, XL_MODE_MEMORY, XL_MODE_XRAY};
	for (size_t i = 0; name && i < XL_ARRAY_SIZE(modes); i++)
		if (strcmp(name, xl_mode_name(modes[i])) == 0) {
			*mode = modes[i];
			return 0;
		}
	return -1;
}

const char *xl_tl_mode_name(uint32_t mode)
{
	switch (mode) {
	case XL_TL_AUTO: return "auto";
	case XL_TL_FIRST: return "first";
	case XL_TL_LAST: return "last";
	default: return "unknown";
	}
}

int xl_tl_mode_parse(const char *name, uint32_t *mode)
{
	for (uint32_t m = XL_TL_AUTO; name && m <= XL_TL_LAST; m++)
		if (strcmp(name, xl_tl_mode_name(m)) == 0) {
			*mode = m;
			return 0;
		}
	return -1;
}
