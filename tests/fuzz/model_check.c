/*
 * model_check.c - see model_check.h.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
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
	for (size_t i = 0; i < m->nfuncs; i++)
		must(m->funcs[i].name != NULL, "function has a name");
	for (size_t i = 0; i < m->nwarnings; i++)
		must(m->warnings[i].kind && m->warnings[i].message, "warning has text");
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
	static const char *const formats[] = {"json", "text", "chrome", "folded", "html"};
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
	xl_model_free(m);
	return rc;
}
