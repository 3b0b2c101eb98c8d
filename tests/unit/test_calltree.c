/*
 * Unit tests: call-tree building from synthetic XRay event streams.
 *
 * Drives the real runtime handler (src/rt) with hand-written entry/exit/tail
 * sequences, one scenario per thread, then reads the capture back with the
 * real analyzer.  The runtime starts from its constructor, so the test
 * re-executes itself once with the capture environment set.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze_internal.h" /* xl_clamp_ns */
#include "rt_capture_env.h"
#include "rt_internal.h"

enum {
	E = 0,
	X = 1,
	T = 2,
	UNWIND = 9
};                            /* UNWIND: the program is back at depth `id` */
#define SP0 0x7f0000100000ull /* a synthetic stack top */
enum {
	MAIN = 1,
	FIB = 2,
	MID = 3,
	LEAF = 4,
	TOP = 5
};

struct ev {
	int32_t id;
	int type;
};

struct scenario {
	const char *name;
	const struct ev *evs;
	size_t n;
	const char *tree; /* expected tree, see render() */
};

#define SC(nm, tr, ...)                                                                                                \
	{                                                                                                              \
		nm, (const struct ev[]){__VA_ARGS__}, sizeof((const struct ev[]){__VA_ARGS__}) / sizeof(struct ev), tr \
	}

static const struct scenario scenarios[] = {
	SC("recursion", "1x1(2x1(2x1(2x1)))", {MAIN, E}, {FIB, E}, {FIB, E}, {FIB, E}, {FIB, X}, {FIB, X}, {FIB, X},
	   {MAIN, X}),
	SC("repeat", "1x1(2x5)", {MAIN, E}, {FIB, E}, {FIB, X}, {FIB, E}, {FIB, X}, {FIB, E}, {FIB, X}, {FIB, E},
	   {FIB, X}, {FIB, E}, {FIB, X}, {MAIN, X}),
	/* mid ends in `jmp leaf`: XRay reports mid TAIL before leaf's entry,
	 * and leaf's exit returns straight to top. */
	SC("tail", "5x1(3x1,4x1)", {TOP, E}, {MID, E}, {MID, T}, {LEAF, E}, {LEAF, X}, {TOP, X}),
	SC("two-parents", "1x1(3x1(4x2),5x1(4x3))", {MAIN, E}, {MID, E}, {LEAF, E}, {LEAF, X}, {LEAF, E}, {LEAF, X},
	   {MID, X}, {TOP, E}, {LEAF, E}, {LEAF, X}, {LEAF, E}, {LEAF, X}, {LEAF, E}, {LEAF, X}, {TOP, X}, {MAIN, X}),
	SC("unmatched-exit", "1x1", {FIB, X}, {MAIN, E}, {LEAF, X}, {MAIN, X}),
	SC("unwind", "1x1(2x1(3x1))", {MAIN, E}, {FIB, E}, {MID, E}, {MAIN, X}),
	SC("open-at-end", "1x1(2x1)", {MAIN, E}, {FIB, E}),
	SC("mutual", "1x1(2x1(3x1(2x1(3x1))))", {MAIN, E}, {FIB, E}, {MID, E}, {FIB, E}, {MID, E}, {MID, X}, {FIB, X},
	   {MID, X}, {FIB, X}, {MAIN, X}),
	/* leaf throws, fib catches (mid and leaf never exit), then fib calls
	 * top: top belongs under fib, found by its stack pointer. */
	SC("exception", "1x1(2x1(3x1(4x1),5x1))", {MAIN, E}, {FIB, E}, {MID, E}, {LEAF, E}, {2, UNWIND}, {TOP, E},
	   {TOP, X}, {FIB, X}, {MAIN, X}),
};
#define NSC (sizeof(scenarios) / sizeof(scenarios[0]))

/* The "wide" thread: WIDE functions called from MAIN, WIDE_BASE + i called
 * 1 + i % 3 times, in two passes so that nodes created before the first
 * node chunk is copied into a full-size one (XL_FIRST_NODES) are counted
 * again after the copy.  Its 2 + 2 * calls events span timeline blocks of
 * growing size (XL_FIRST_EVENTS, twice that, ...). */
#define WIDE 1000
#define WIDE_BASE 100
#define WIDE_CALLS (WIDE + WIDE / 3 * 3) /* sum of 1 + i % 3 over i < WIDE: 1999 */

static void *wide(void *arg)
{
	(void)arg;
	rt__xray_event(MAIN, E, SP0);
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < WIDE; i++)
			if (pass <= i % 3) {
				rt__xray_event(WIDE_BASE + i, E, SP0 - 64);
				rt__xray_event(WIDE_BASE + i, X, 0);
			}
	rt__xray_event(MAIN, X, 0);
	return NULL;
}

/* The "bounded" thread, last: an s-paths-like program (tests/progs/s-paths.c)
 * whose 4 + 16 + ... + 4^BD distinct paths below MAIN need more nodes than
 * the test's 4 MiB buffer holds, so its call tree reaches its bound.  Its
 * events carry synthetic timestamps, B_STEP ticks apart, so that the function
 * table's times can be checked exactly against a simulation of the same
 * stream (exp_*: written by the test, not by the runtime). */
#define BD 8
#define B_BASE 21     /* functions B_BASE .. B_BASE + 3 */
#define B_PATHS 87380 /* 4 + 16 + ... + 4^8 */
static uint64_t b_now;
static uint64_t exp_calls[B_BASE + 4], exp_total[B_BASE + 4];
static int64_t exp_self[B_BASE + 4];
static struct {
	int32_t f;
	uint64_t at;
} b_stack[BD + 2];
static int b_depth;

#define B_STEP 1000 /* ticks between two events */

static void b_event(int32_t f, int type)
{
	b_now += B_STEP;
	/* the general code at a chosen time, as the full handler calls it */
	rt__hot.gate = RT_GATE_BUSY;
	rt__hot_event_at(f, type, type == E ? SP0 - 64 * (uint64_t)(b_depth + 1) : 0, b_now);
	rt__hot.gate = RT_GATE_READY;
	if (type == E) {
		exp_calls[f]++;
		b_stack[b_depth].f = f;
		b_stack[b_depth++].at = b_now;
		return;
	}
	uint64_t dt = b_now - b_stack[--b_depth].at;
	exp_self[f] += (int64_t)dt;
	if (b_depth > 0)
		exp_self[b_stack[b_depth - 1].f] -= (int64_t)dt;
	int outer = 1;
	for (int i = 0; i < b_depth; i++)
		outer &= b_stack[i].f != f;
	if (outer)
		exp_total[f] += dt;
}

static void b_paths(int depth)
{
	if (depth <= 0)
		return;
	for (int32_t f = B_BASE; f < B_BASE + 4; f++) {
		b_event(f, E);
		b_paths(depth - 1);
		b_event(f, X);
	}
}

static void *bounded(void *arg)
{
	(void)arg;
	rt__xray_event(MAIN, E, SP0); /* registers the thread */
	b_now = rt__hot.tb->last_ticks;
	b_stack[0].f = MAIN;
	b_stack[0].at = b_now;
	b_depth = 1;
	exp_calls[MAIN] = 1;
	b_paths(BD);
	b_event(MAIN, X);
	return NULL;
}

static char capture_dir[256];
static struct xl_model *model;

/* Entries get stack pointers as in a real program: each level 64 bytes
 * below the one above (the events say how deep the program is). */
static void *play(void *arg)
{
	const struct scenario *s = arg;
	uint64_t depth = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->evs[i].type == UNWIND) {
			depth = (uint64_t)s->evs[i].id;
			continue;
		}
		int e = s->evs[i].type == E;
		rt__xray_event(s->evs[i].id, s->evs[i].type, e ? SP0 - 64 * depth : 0);
		if (e)
			depth++;
		else if (depth)
			depth--;
	}
	return NULL;
}

/* The "killed" thread, after "wide": MAIN > MID > LEAF, LEAF kept
 * (its exit stores MAIN's, MID's and its own ENTRY records, then its
 * EXIT), MID and MAIN left open; then tl_written goes back to 0, as in a
 * program killed after the records were published and before tl_written
 * was (xl_capture.h).  The reader must show MAIN and MID once each. */
static void *killed(void *arg)
{
	(void)arg;
	rt__xray_event(MAIN, E, SP0);
	rt__xray_event(MID, E, SP0 - 64);
	rt__xray_event(LEAF, E, SP0 - 128);
	rt__xray_event(LEAF, X, 0);
	rt__xray_event(TOP, E, SP0 - 128); /* entered after: no record, shown from the stack */
	__atomic_store_n(&rt__hot.tb->tl_written, 0, __ATOMIC_RELEASE);
	return NULL;
}

/* "id x calls (children...)" in creation order */
static void render(const struct xl_model *m, int32_t node, char *buf, size_t len, size_t *at)
{
	for (int32_t c = m->nodes[node].first_child; c != XL_NONE; c = m->nodes[c].next_sibling) {
		if (c != m->nodes[node].first_child)
			*at += (size_t)snprintf(buf + *at, len - *at, ",");
		*at += (size_t)snprintf(buf + *at, len - *at, "%dx%llu", m->funcs[m->nodes[c].func].xray_id,
					(unsigned long long)m->nodes[c].calls);
		if (m->nodes[c].first_child != XL_NONE) {
			*at += (size_t)snprintf(buf + *at, len - *at, "(");
			render(m, c, buf, len, at);
			*at += (size_t)snprintf(buf + *at, len - *at, ")");
		}
	}
}

static int setup(void **state)
{
	(void)state;
	/* Run every scenario on its own thread, one after the other, so that
	 * thread slot k holds scenario k. */
	rt__hdr->max_function_id = 2000; /* what rt_patch.c reads from XRay */
	rt__tl_mode = XL_TL_FIRST;       /* every event stored (no window, no threshold) */
	atomic_store(&rt__on, 1);
	rt__track_sp = 1; /* the exception scenario (cmocka's longjmp turns it on anyway) */
	for (size_t i = 0; i < NSC; i++) {
		pthread_t t;
		pthread_create(&t, NULL, play, (void *)&scenarios[i]);
		pthread_join(t, NULL);
	}
	pthread_t t;
	pthread_create(&t, NULL, wide, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, killed, NULL); /* before bounded, which fills the buffer */
	pthread_join(t, NULL);
	pthread_create(&t, NULL, bounded, NULL);
	pthread_join(t, NULL);
	/* as the runtime's exit does (rt_init.c, rt_fini): the control
	 * thread first, or its sampler and the finalization's race */
	rt__control_stop();
	rt__finalize(XL_END_EXIT);
	char err[512];
	int rc = xl_model_load(capture_dir, &model, err, sizeof(err));
	if (rc != XL_OK)
		fprintf(stderr, "load: %s\n", err);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	xl_model_free(model);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", capture_dir);
	return system(cmd);
}

static void trees(void **state)
{
	(void)state;
	assert_int_equal(model->nthreads, NSC + 3);
	for (size_t i = 0; i < NSC; i++) {
		char buf[256] = "";
		size_t at = 0;
		render(model, model->threads[i].root, buf, sizeof(buf), &at);
		print_message("%-15s %s\n", scenarios[i].name, buf);
		assert_string_equal(buf, scenarios[i].tree);
	}
}

static void repairs_and_open_frames(void **state)
{
	(void)state;
	/* unmatched-exit: fib's exit with no frame open (a frame open before
	 * recording began: open_exits), leaf's below main's frame (a repair) */
	assert_int_equal(model->threads[4].repaired_exits, 1);
	assert_int_equal(model->open_exits, 1);
	assert_int_equal(model->threads[5].unwound_frames, 2); /* unwind: mid and fib closed by main's exit */
	assert_int_equal(model->threads[6].open_frames, 2);    /* open-at-end */
	assert_int_equal(model->threads[8].unwound_frames, 2); /* exception: mid and leaf, at top's entry */
	assert_int_equal(model->threads[8].open_frames, 0);
	assert_int_equal(model->threads[0].open_frames, 0);
	assert_true(model->finalized);
	int repaired = 0;
	for (size_t i = 0; i < model->nwarnings; i++)
		repaired |= strcmp(model->warnings[i].kind, "repaired_exits") == 0;
	assert_true(repaired);
}

static void times_add_up(void **state)
{
	(void)state;
	for (size_t t = 0; t < model->nthreads; t++) {
		int64_t self_sum = 0;
		for (size_t i = 0; i < model->nnodes; i++) {
			const struct xl_tnode *n = &model->nodes[i];
			if (n->thread != t)
				continue;
			assert_true(n->self_ns >= 0);
			assert_true(n->self_ns <= n->total_ns);
			self_sum += n->self_ns;
		}
		assert_int_equal(self_sum, model->nodes[model->threads[t].root].total_ns);
	}
}

static void recursion_counted_once(void **state)
{
	(void)state;
	/* In the recursion scenario fib's total is its outermost frame only:
	 * equal to the total of the first fib node, not the sum of three. */
	struct xl_func *f = malloc(model->nfuncs * sizeof(*f));
	xl_funcs_for_thread(model, 0, f);
	int32_t fib = xl_func_index(model, FIB);
	assert_true(fib >= 0);
	assert_int_equal(f[fib].calls, 3);
	int32_t root = model->threads[0].root;
	int32_t outer = model->nodes[model->nodes[root].first_child].first_child;
	assert_int_equal(f[fib].total_ns, model->nodes[outer].total_ns);
	free(f);
}

/* Past the first (small) node chunk and across growing timeline blocks:
 * every path with its exact count, every event in order. */
static void wide_tree_and_timeline(void **state)
{
	(void)state;
	const struct xl_thread *th = &model->threads[NSC];
	assert_int_equal(th->node_count, 2 + WIDE);
	int32_t main_node = model->nodes[th->root].first_child;
	assert_true(main_node != XL_NONE);
	int seen = 0;
	for (int32_t c = model->nodes[main_node].first_child; c != XL_NONE; c = model->nodes[c].next_sibling) {
		int i = model->funcs[model->nodes[c].func].xray_id - WIDE_BASE;
		assert_true(i >= 0 && i < WIDE);
		assert_int_equal(model->nodes[c].calls, 1 + i % 3);
		seen++;
	}
	assert_int_equal(seen, WIDE);
	assert_int_equal(th->dropped_events, 0);
	assert_int_equal(th->timeline_events, 2 + 2 * WIDE_CALLS);

	struct xl_tl_iter it;
	struct xl_event ev;
	xl_tl_begin(model, th, &it);
	uint64_t n = 0, last = 0;
	int32_t open = 0;
	while (xl_tl_next(&it, &ev)) {
		assert_true(ev.ticks >= last);
		last = ev.ticks;
		if (n == 0)
			assert_int_equal(ev.func, MAIN);
		else if (ev.func != MAIN && ev.kind == XL_EV_ENTRY)
			open = ev.func;
		else if (ev.func != MAIN)
			assert_int_equal(ev.func, open); /* each exit follows its entry */
		n++;
	}
	assert_int_equal(n, 2 + 2 * WIDE_CALLS);
}

/* A thread whose tree holds every call leaves its per-function table
 * empty: the table holds only what the tree cannot. */
static void table_empty_when_tree_complete(void **state)
{
	(void)state;
	for (size_t t = 0; t <= NSC; t++) {
		const struct xl_thread *th = &model->threads[t];
		assert_true(th->func_table);
		assert_false(th->tree_bounded);
		assert_int_equal(th->nfstat, 0);
	}
}

/* Node space runs out: every call is in the tree, in its own node or a
 * "(more call paths)" node below the deepest node its path has; the
 * function table is exact. */
static void bounded_tree_keeps_every_call(void **state)
{
	(void)state;
	size_t ti = NSC + 2;
	const struct xl_thread *th = &model->threads[ti];
	assert_true(th->tree_bounded);
	assert_true(th->more_nodes > 0);
	assert_int_equal(th->lost_node_events, 0);
	assert_true(model->flags & XL_FLAG_TREE_BOUNDED);
	uint64_t in_tree = 0, in_more = 0;
	uint32_t more_nodes = 0;
	for (size_t i = 0; i < model->nnodes; i++) {
		const struct xl_tnode *n = &model->nodes[i];
		if (n->thread != ti || n->parent == XL_NONE)
			continue;
		in_tree += n->calls;
		if (xl_func_is_more(&model->funcs[n->func])) {
			in_more += n->calls;
			more_nodes++;
			/* below a regular node, and a leaf */
			int32_t pf = model->nodes[n->parent].func;
			assert_true(pf == XL_NONE || !xl_func_is_more(&model->funcs[pf]));
			assert_int_equal(n->first_child, XL_NONE);
		}
	}
	print_message("bounded: %u nodes, %llu of %d calls in %u \"(more call paths)\" nodes\n", th->node_count,
		      (unsigned long long)in_more, B_PATHS + 1, more_nodes);
	assert_int_equal(in_tree, B_PATHS + 1);
	assert_true(in_more > 0 && in_more < B_PATHS);
	assert_int_equal(in_more, th->more_calls);
	assert_int_equal(more_nodes, th->more_nodes);

	struct xl_func *f = malloc(model->nfuncs * sizeof(*f));
	assert_int_equal(xl_funcs_for_thread(model, (int)ti, f), XL_OK);
	uint64_t table_calls = 0;
	for (size_t i = 0; i < model->nfuncs; i++)
		table_calls += f[i].calls;
	assert_int_equal(table_calls, B_PATHS + 1);
	for (int32_t id = MAIN; id < B_BASE + 4; id++) {
		if (id != MAIN && id < B_BASE)
			continue;
		int32_t k = xl_func_index(model, id);
		assert_true(k >= 0);
		assert_int_equal(f[k].calls, exp_calls[id]);
		assert_int_equal(f[k].calls, id == MAIN ? 1 : B_PATHS / 4);
		int64_t self = xl_clamp_ns((double)exp_self[id] / model->ticks_per_ns);
		int64_t total = xl_clamp_ns((double)exp_total[id] / model->ticks_per_ns);
		print_message("  %d: calls %llu self %lld (expected %lld) total %lld (expected %lld)\n", id,
			      (unsigned long long)f[k].calls, (long long)f[k].self_ns, (long long)self,
			      (long long)f[k].total_ns, (long long)total);
		/* the tree's part is summed from per-node times in ns: at most
		 * one ns of rounding per node */
		assert_true(llabs(f[k].self_ns - self) <= (int64_t)th->node_count);
		assert_true(llabs(f[k].total_ns - total) <= (int64_t)th->node_count);
		assert_true(f[k].total_ns > 0);
	}
	free(f);
	int warned = 0;
	for (size_t i = 0; i < model->nwarnings; i++) {
		assert_true(strcmp(model->warnings[i].kind, "nodes_full") != 0);
		if (strcmp(model->warnings[i].kind, "tree_bounded") == 0) {
			char want[64];
			snprintf(want, sizeof(want), " %llu calls on call paths", (unsigned long long)in_more);
			warned = strstr(model->warnings[i].message, want) != NULL;
		}
	}
	assert_true(warned);
}

/* The thread's timeline as "kind:id" words, stored records then the
 * open frames without one (xl_tl_next). */
static void timeline_words(const struct xl_thread *th, char *buf, size_t len)
{
	struct xl_tl_iter it;
	struct xl_event ev;
	size_t at = 0;
	uint64_t last = 0;
	buf[0] = 0;
	xl_tl_begin(model, th, &it);
	while (xl_tl_next(&it, &ev) && at < len) {
		assert_true(ev.ticks >= last);
		last = ev.ticks;
		at += (size_t)snprintf(buf + at, len - at, "%s%c:%d", at ? " " : "", ev.kind == XL_EV_ENTRY ? 'E' : 'X',
				       ev.func);
	}
}

/* Capture format 7: an entry stores no record, a kept call's exit stores
 * its ENTRY (and those of the frames below without one) with its EXIT,
 * and the frames that never got a record come from the stack. */
static void open_frames_in_the_timeline(void **state)
{
	(void)state;
	char buf[256];
	timeline_words(&model->threads[6], buf, sizeof(buf)); /* open-at-end: nothing stored */
	assert_string_equal(buf, "E:1 E:2");
	timeline_words(&model->threads[0], buf, sizeof(buf)); /* recursion: every call kept (threshold 0) */
	assert_string_equal(buf, "E:1 E:2 E:2 E:2 X:2 X:2 X:2 X:1");
	timeline_words(&model->threads[NSC + 1], buf, sizeof(buf)); /* killed between records and tl_written */
	assert_string_equal(buf, "E:1 E:3 E:4 X:4 E:5");
}

int main(int argc, char **argv)
{
	(void)argc;
	/* 4 MiB: the bounded thread's tree does not fit */
	if (xl_test_captured(argv, "/tmp/xl-calltree-XXXXXX", "4194304", capture_dir, sizeof(capture_dir)) != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trees),
		cmocka_unit_test(repairs_and_open_frames),
		cmocka_unit_test(times_add_up),
		cmocka_unit_test(recursion_counted_once),
		cmocka_unit_test(wide_tree_and_timeline),
		cmocka_unit_test(table_empty_when_tree_complete),
		cmocka_unit_test(bounded_tree_keeps_every_call),
		cmocka_unit_test(open_frames_in_the_timeline),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
