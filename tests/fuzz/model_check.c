/*
 * model_check.c - see model_check.h.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_diff.h"
#include "fuzz.h"
#include "model_check.h"

static void must(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz: model invariant broken: %s\n", what);
		abort();
	}
}

static void check(const struct xl_model *m)
{
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		must(t->root >= 0 && (size_t)t->root < m->nnodes, "thread root in range");
		must(m->nodes[t->root].parent == XL_NONE, "thread root has no parent");
		must(memchr(t->name, 0, sizeof(t->name)) != NULL, "thread name terminated");
	}
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		must(n->thread < m->nthreads, "node thread in range");
		if (n->parent == XL_NONE)
			continue;
		must(n->parent >= 0 && (size_t)n->parent < i, "parent precedes child");
		must(n->func >= 0 && (size_t)n->func < m->nfuncs, "node func in range");
		must(n->total_ns >= 0 && n->self_ns >= 0, "times are not negative");
	}
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		must(t->nfstat <= m->nfstats && t->fstat_first <= m->nfstats - t->nfstat, "function records in range");
	}
	for (size_t i = 0; i < m->nfstats; i++)
		must(m->fstats[i].func >= 0 && (size_t)m->fstats[i].func < m->nfuncs,
		     "function record's func in range");
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct xl_func *f = &m->funcs[i];
		must(f->name != NULL, "function has a name");
		must(f->self_ns >= 0 && f->total_ns >= 0, "function times are not negative");
		must(!xl_func_is_more(f) || (!f->calls && !f->self_ns && !f->total_ns),
		     "\"(more call paths)\" has no figures");
	}
	for (size_t i = 0; i < m->nwarnings; i++)
		must(m->warnings[i].kind && m->warnings[i].message, "warning has text");
}

/* The capture against itself (one run against two, normalized): the diff
 * analyzer and its emitters over whatever the model holds.  Nothing can
 * have changed. */
static void diff_with_itself(struct xl_model *m)
{
	struct xl_model *runs[2] = {m, m};
	struct xl_diff_side one = {runs, 1}, two = {runs, 2};
	struct xl_diff d;
	if (xl_diff_build(&one, &two, 1, &d) != XL_OK)
		return;
	for (size_t i = 0; i < d.nfuncs; i++)
		must(d.funcs[i].calls.v[XL_BASE] == d.funcs[i].calls.v[XL_NEW], "a capture against itself: same calls");
	struct xl_diff_opts o = {XL_DSORT_SELF, 3, 0};
	for (int s = XL_DSORT_SELF; s <= XL_DSORT_CALLS; s++) {
		o.sort = (enum xl_diff_sort)s;
		xl_emit_diff_text(&d, fz_sink(), &o);
	}
	xl_emit_diff_json(&d, fz_sink(), &o);
	xl_emit_diff_html(&d, fz_sink(), &o);
	xl_diff_free(&d);
}

int fz_load_and_emit(const char *dir)
{
	struct xl_model *m;
	char err[512];
	memset(err, 'x', sizeof(err));
	int rc = xl_model_load(dir, &m, err, sizeof(err));
	if (rc != XL_OK) {
		must(memchr(err, 0, sizeof(err)) != NULL && err[0], "an error comes with a message");
		must(strchr(err, '\n') == NULL, "the error message is one line");
		return rc;
	}
	check(m);
	static const char *const formats[] = {"json", "text", "chrome", "perfetto", "folded", "pprof", "html"};
	struct xl_emit_opts o;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		xl_emit_opts_init(&o);
		xl_emitter(formats[i])(m, fz_sink(), &o);
	}
	/* One thread's view, every sort order, the timeline in JSON. */
	xl_emit_opts_init(&o);
	o.timeline = 1;
	o.timeline_max = 50;
	o.thread = m->nthreads ? (int)(m->nthreads - 1) : -1;
	o.top = 3;
	for (int s = XL_SORT_SELF; s <= XL_SORT_NAME; s++) {
		o.sort = (enum xl_sort)s;
		xl_emit_text(m, fz_sink(), &o);
	}
	xl_emit_json(m, fz_sink(), &o);
	xl_emit_folded(m, fz_sink(), &o);
	xl_emit_pprof(m, fz_sink(), &o);
	diff_with_itself(m);
	xl_model_free(m);
	return rc;
}
