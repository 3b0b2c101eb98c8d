/*
 * Unit tests: the differential model (src/analyze/diff.c) on hand-built
 * models whose values are known, so medians, ranges, significance,
 * normalisation and pairing (by name, file as tie-breaker, never by XRay
 * id) are checked exactly.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff.h"

/* A model of one thread: main -> each function once, with the given self
 * times (calls = 1 + index).  Functions get XRay ids in reverse order so
 * that pairing by id would go wrong. */
struct fdef {
	const char *name, *file;
	int64_t self;
};

static struct xl_model *model(const struct fdef *f, size_t n, int64_t main_self)
{
	struct xl_model *m = calloc(1, sizeof(*m));
	m->funcs = calloc(n + 1, sizeof(*m->funcs));
	m->nodes = calloc(n + 2, sizeof(*m->nodes));
	m->threads = calloc(1, sizeof(*m->threads));
	m->nfuncs = n + 1;
	m->nnodes = n + 2;
	m->nthreads = 1;
	m->peak_rss = XL_UNAVAILABLE;
	m->run.app_time_ns = -1;
	m->mode = XL_MODE_XRAY;
	int64_t sum = main_self;
	for (size_t i = 0; i < n; i++)
		sum += f[i].self;
	/* funcs[0] = main, funcs[1..n] */
	m->funcs[0] =
		(struct xl_func){.xray_id = 100, .name = "main", .calls = 1, .self_ns = main_self, .total_ns = sum};
	m->nodes[0] = (struct xl_tnode){
		.parent = XL_NONE, .func = XL_NONE, .first_child = 1, .next_sibling = XL_NONE, .total_ns = sum};
	m->nodes[1] = (struct xl_tnode){.parent = 0,
					.func = 0,
					.first_child = n ? 2 : XL_NONE,
					.next_sibling = XL_NONE,
					.calls = 1,
					.total_ns = sum,
					.self_ns = main_self};
	for (size_t i = 0; i < n; i++) {
		m->funcs[i + 1] = (struct xl_func){.xray_id = (int32_t)(50 - i),
						   .name = (char *)f[i].name,
						   .file = (char *)f[i].file,
						   .calls = i + 1,
						   .self_ns = f[i].self,
						   .total_ns = f[i].self};
		m->nodes[i + 2] = (struct xl_tnode){.parent = 1,
						    .func = (int32_t)(i + 1),
						    .first_child = XL_NONE,
						    .next_sibling = i + 1 < n ? (int32_t)(i + 3) : XL_NONE,
						    .calls = i + 1,
						    .total_ns = f[i].self,
						    .self_ns = f[i].self};
	}
	m->threads[0].root = 0;
	m->threads[0].total_ns = sum;
	return m;
}

static void model_free(struct xl_model *m)
{
	free(m->funcs);
	free(m->nodes);
	free(m->threads);
	free(m);
}

static const struct xl_diff_func *find(const struct xl_diff *d, const char *name, const char *file)
{
	for (size_t i = 0; i < d->nfuncs; i++)
		if (strcmp(d->funcs[i].name, name) == 0 &&
		    (!file || (d->funcs[i].file && strcmp(d->funcs[i].file, file) == 0)))
			return &d->funcs[i];
	return NULL;
}

static void pairing(void **state)
{
	(void)state;
	/* two static functions named "step" in different files; "old" renamed
	 * to "new"; "moved" changed file (unique name: still paired) */
	const struct fdef b[] = {{"step", "a.c", 10}, {"step", "b.c", 20}, {"old", "a.c", 30}, {"moved", "x.c", 40}};
	const struct fdef n[] = {{"moved", "y.c", 44}, {"new", "a.c", 35}, {"step", "b.c", 60}, {"step", "a.c", 10}};
	struct xl_model *mb = model(b, 4, 5), *mn = model(n, 4, 5);
	struct xl_diff_side sb = {&mb, 1}, sn = {&mn, 1};
	struct xl_diff d;
	assert_int_equal(xl_diff_build(&sb, &sn, 0, &d), XL_OK);
	assert_int_equal(d.nfuncs, 6); /* main, step a, step b, old, moved, new */
	const struct xl_diff_func *sa = find(&d, "step", "a.c"), *sbf = find(&d, "step", "b.c");
	assert_non_null(sa);
	assert_non_null(sbf);
	assert_true(sa->self_ns.v[XL_BASE] == 10 && sa->self_ns.v[XL_NEW] == 10);
	assert_true(sbf->self_ns.v[XL_BASE] == 20 && sbf->self_ns.v[XL_NEW] == 60);
	assert_true(fabs(xl_diff_rel(&sbf->self_ns) - 2.0) < 1e-12); /* +200 % */
	const struct xl_diff_func *o = find(&d, "old", NULL), *nw = find(&d, "new", NULL),
				  *mv = find(&d, "moved", NULL);
	assert_true(o->present[XL_BASE] && !o->present[XL_NEW]);
	assert_true(!nw->present[XL_BASE] && nw->present[XL_NEW]);
	assert_true(mv->present[XL_BASE] && mv->present[XL_NEW]);
	assert_int_equal(mv->significant, -1); /* one run per side */
	/* the tree: root > main > 5 distinct children (step a, step b, old, moved, new) */
	assert_int_equal(d.nnodes, 1 + 1 + 5);
	int32_t main_node = d.nodes[0].first_child;
	assert_int_equal(d.funcs[d.nodes[main_node].func].name[0], 'm');
	assert_true(d.nodes[main_node].total_ns[XL_BASE] == 105 && d.nodes[main_node].total_ns[XL_NEW] == 154);
	/* sorting by self change: step b (+40) first, then old (-30) / new (+35) */
	size_t idx[6];
	xl_diff_sorted(&d, XL_DSORT_SELF, idx);
	assert_ptr_equal(&d.funcs[idx[0]], sbf);
	assert_ptr_equal(&d.funcs[idx[1]], nw);
	assert_ptr_equal(&d.funcs[idx[2]], o);
	xl_diff_free(&d);
	model_free(mb);
	model_free(mn);
}

/* Short names for display over both sides: ns::f(int) only in BASE and
 * ns::f(long) only in NEW share the short form "ns::f", which neither side
 * alone would tell apart; the diff does, by parameters, and pairs by full
 * name (the instantiation in both sides stays one function). */
static void short_names(void **state)
{
	(void)state;
	const struct fdef b[] = {{"ns::f(int)", "a.cc", 10}, {"int ns::g<int>(int)", "a.cc", 20}};
	const struct fdef n[] = {{"ns::f(long)", "a.cc", 15}, {"int ns::g<int>(int)", "a.cc", 25}};
	struct xl_model *mb = model(b, 2, 5), *mn = model(n, 2, 5);
	struct xl_diff_side sb = {&mb, 1}, sn = {&mn, 1};
	struct xl_diff d;
	assert_int_equal(xl_diff_build(&sb, &sn, 0, &d), XL_OK);
	assert_int_equal(d.nfuncs, 4); /* main, f(int), f(long), g<int> */
	assert_string_equal(find(&d, "ns::f(int)", NULL)->short_name, "ns::f(int)");
	assert_string_equal(find(&d, "ns::f(long)", NULL)->short_name, "ns::f(long)");
	const struct xl_diff_func *g = find(&d, "int ns::g<int>(int)", NULL);
	assert_string_equal(g->short_name, "ns::g<\u2026>");
	assert_true(g->present[XL_BASE] && g->present[XL_NEW]);
	assert_string_equal(find(&d, "main", NULL)->short_name, "main");
	xl_diff_free(&d);
	model_free(mb);
	model_free(mn);
}

static void runs_and_noise(void **state)
{
	(void)state;
	/* three runs a side: "hot" 100/110/90 -> 300/330/290 (significant),
	 * "flat" 50/60/40 -> 55/45/52 (within the spread) */
	int64_t hb[] = {100, 110, 90}, hn[] = {300, 330, 290}, fb[] = {50, 60, 40}, fn[] = {55, 45, 52};
	struct xl_model *b[3], *n[3];
	for (int i = 0; i < 3; i++) {
		const struct fdef x[] = {{"hot", "h.c", hb[i]}, {"flat", "f.c", fb[i]}};
		const struct fdef y[] = {{"hot", "h.c", hn[i]}, {"flat", "f.c", fn[i]}};
		b[i] = model(x, 2, 0);
		n[i] = model(y, 2, 0);
	}
	struct xl_diff_side sb = {b, 3}, sn = {n, 3};
	struct xl_diff d;
	assert_int_equal(xl_diff_build(&sb, &sn, 0, &d), XL_OK);
	const struct xl_diff_func *h = find(&d, "hot", NULL), *f = find(&d, "flat", NULL);
	assert_true(h->self_ns.v[XL_BASE] == 100 && h->self_ns.v[XL_NEW] == 300);
	assert_true(h->self_ns.lo[XL_BASE] == 90 && h->self_ns.hi[XL_BASE] == 110);
	assert_true(h->self_ns.lo[XL_NEW] == 290 && h->self_ns.hi[XL_NEW] == 330);
	assert_int_equal(h->significant, 1);
	assert_true(f->self_ns.v[XL_BASE] == 50 && f->self_ns.v[XL_NEW] == 52);
	assert_int_equal(f->significant, 0);
	/* run totals: thread time medians of the sums 150 (150, 170, 130) -> 355 (355, 375, 342) */
	assert_true(d.thread_ns.v[XL_BASE] == 150 && d.thread_ns.v[XL_NEW] == 355);
	assert_true(d.peak_rss.v[XL_BASE] < 0); /* unavailable */
	/* tree values are means over runs */
	int32_t main_node = d.nodes[0].first_child;
	assert_true(d.nodes[main_node].total_ns[XL_BASE] == 150 && d.nodes[main_node].calls[XL_NEW] == 1);
	xl_diff_free(&d);

	/* normalised: base times scaled by 355/150, calls not */
	assert_int_equal(xl_diff_build(&sb, &sn, 1, &d), XL_OK);
	assert_int_equal(d.normalized, 1);
	assert_true(fabs(d.scale - 355.0 / 150.0) < 1e-12);
	h = find(&d, "hot", NULL);
	assert_true(fabs(h->self_ns.v[XL_BASE] - 100 * d.scale) < 1e-9);
	assert_true(h->calls.v[XL_BASE] == 1 && h->calls.v[XL_NEW] == 1);
	assert_true(fabs(d.thread_ns.v[XL_BASE] - d.thread_ns.v[XL_NEW]) < 1e-9);
	main_node = d.nodes[0].first_child;
	assert_true(fabs(d.nodes[main_node].calls[XL_BASE] - 1) < 1e-12);
	xl_diff_free(&d);
	for (int i = 0; i < 3; i++) {
		model_free(b[i]);
		model_free(n[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairing),
		cmocka_unit_test(runs_and_noise),
		cmocka_unit_test(short_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
