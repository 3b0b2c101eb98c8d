/*
 * Unit tests: the warning and note rules (src/analyze/warnings.c).
 *
 * Each rule runs over a hand-built model and loader: a clean capture gets
 * no warning and no note; each case below changes one thing and must get
 * exactly the one warning or note of its kind, with the numbers it was
 * given in the text; several at once come in the rules' order, which every
 * output keeps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze_internal.h"

struct fixture {
	struct xl_model m;
	struct xl_loader ld;
	struct xl_thread threads[2];
	struct xl_func funcs[1];
};

/* Two threads, one function, finalized, a whole-run window, TSC clock,
 * tracing only (no GC note), no event: nothing to say. */
static void clean(struct fixture *x)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->threads[0].name, sizeof(x->threads[0].name), "main");
	snprintf(x->threads[1].name, sizeof(x->threads[1].name), "worker");
	x->threads[0].cpu_ns = x->threads[1].cpu_ns = -1;
	x->threads[0].dropped_from_ns = x->threads[1].dropped_from_ns = -1;
	x->funcs[0].name = "main";
	struct xl_model *m = &x->m;
	m->threads = x->threads;
	m->nthreads = 2;
	m->funcs = x->funcs;
	m->nfuncs = 1;
	m->version = 2;
	m->finalized = 1;
	m->mode = XL_MODE_XRAY;
	m->clock = XL_CLOCK_TSC;
	m->window_start_ns = 0;
	m->window_end_ns = m->last_ns = 2000000000;
	m->timeline_full_ns = -1;
	m->peak_rss = XL_UNAVAILABLE;
	m->run.app_time_ns = m->run.compile_time_ns = -1;
	m->run.overhead_ns_per_call = -1;
	m->run.attached_at_ns = -1;
	x->ld.file_bytes = x->ld.used_bytes = 4096;
}

static void release(struct xl_model *m)
{
	for (size_t i = 0; i < m->nwarnings; i++) {
		free(m->warnings[i].kind);
		free(m->warnings[i].message);
	}
	for (size_t i = 0; i < m->nnotes; i++) {
		free(m->notes[i].kind);
		free(m->notes[i].message);
	}
	free(m->warnings);
	free(m->notes);
}

static void build(struct fixture *x)
{
	assert_int_equal(xl_warnings_build(&x->m, &x->ld), XL_OK);
}

static void a_clean_capture_has_nothing_to_say(void **state)
{
	(void)state;
	struct fixture x;
	clean(&x);
	build(&x);
	for (size_t i = 0; i < x.m.nwarnings; i++)
		print_message("warning %s: %s\n", x.m.warnings[i].kind, x.m.warnings[i].message);
	for (size_t i = 0; i < x.m.nnotes; i++)
		print_message("note %s: %s\n", x.m.notes[i].kind, x.m.notes[i].message);
	assert_int_equal(x.m.nwarnings, 0);
	assert_int_equal(x.m.nnotes, 0);
	release(&x.m);
}

/* One change to the clean capture and what it must bring. */
struct rule_case {
	void (*change)(struct fixture *x);
	int is_note;
	const char *kind, *topic, *text;
};

static void truncated(struct fixture *x)
{
	x->ld.file_bytes = 1000;
	x->ld.used_bytes = 5000;
}

static void one_corrupt_thread(struct fixture *x)
{
	x->ld.corrupt_threads = 1;
}

static void three_corrupt_threads(struct fixture *x)
{
	x->ld.corrupt_threads = 3;
}

static void not_finalized(struct fixture *x)
{
	x->m.finalized = 0;
	x->m.last_ns = 1500000000;
	x->threads[0].open_frames = 2;
	x->threads[1].open_frames = 1;
}

static void repaired(struct fixture *x)
{
	x->threads[0].repaired_exits = 4;
	x->threads[1].repaired_exits = 3;
	x->threads[1].unwound_frames = 5;
}

static void deep(struct fixture *x)
{
	x->threads[0].deep_events = 40;
	x->threads[1].deep_events = 2;
}

static void reentry(struct fixture *x)
{
	x->threads[1].reentry_lost = 9;
}

static void samples_missed(struct fixture *x)
{
	x->m.mem_samples_missed = 12;
}

static void memory_mode(struct fixture *x)
{
	x->m.mode = XL_MODE_ALL;
}

static void gc_linked(struct fixture *x)
{
	x->m.mode = XL_MODE_ALL;
	x->m.flags |= XL_FLAG_GC_PRESENT;
}

static void never_opened(struct fixture *x)
{
	x->m.window_start_ns = -1;
	x->m.delay_ns = 3000000000;
}

static void delayed(struct fixture *x)
{
	x->m.window_start_ns = 500000000;
	x->m.delay_ns = 500000000;
}

static void open_exits(struct fixture *x)
{
	x->m.open_exits = 1;
}

static void clock_fallback(struct fixture *x)
{
	x->m.clock = XL_CLOCK_MONOTONIC;
}

static void symbols_missing(struct fixture *x)
{
	snprintf(x->ld.symbols_problem, sizeof(x->ld.symbols_problem), "the capture has no symbols.json");
}

static void symbols_mismatch(struct fixture *x)
{
	symbols_missing(x);
	x->ld.symbols_mismatch = 1;
}

static void patch_failed(struct fixture *x)
{
	x->m.flags |= XL_FLAG_PATCH_FAILED;
	x->m.nfuncs = 0;
}

static void no_functions(struct fixture *x)
{
	x->m.nfuncs = 0;
}

static void samples_lost(struct fixture *x)
{
	x->m.isamples_lost = 3;
	x->m.isamples_dropped = 4;
}

static const struct rule_case cases[] = {
	{truncated, 0, "truncated", XL_TOPIC_RUN, "capture file truncated: 1000 of 5000 bytes; 2 threads"},
	{one_corrupt_thread, 0, "corrupt_threads", XL_TOPIC_RUN, "1 thread block could not be read"},
	{three_corrupt_threads, 0, "corrupt_threads", XL_TOPIC_RUN, "3 thread blocks could not be read"},
	{not_finalized, 0, "not_finalized", XL_TOPIC_RUN, "at about 1.500 s; 3 open frames were closed"},
	{repaired, 0, "repaired_exits", XL_TOPIC_RUN, "7 exits had no matching entry and were ignored, 5 frames"},
	{deep, 0, "deep_recursion", XL_TOPIC_RUN, "42 events below that depth"},
	{reentry, 0, "reentry_lost", XL_TOPIC_RUN, "9 events made by signal handlers"},
	{samples_missed, 0, "memory_samples_missed", XL_TOPIC_RUN, "12 memory samples were missed"},
	{memory_mode, 1, "gc_unavailable", XL_TOPIC_MEMORY, "the program does not use the Boehm GC"},
	{gc_linked, 1, "gc_unavailable", XL_TOPIC_MEMORY, "the Boehm collector was linked but not initialised"},
	{never_opened, 0, "window_never_opened", XL_TOPIC_RUN, "ended at 2.000 s, before the 3.000 s delay"},
	{delayed, 1, "window", XL_TOPIC_RUN, "0.500 s to 2.000 s of the run (delay 0.500 s, duration until exit)"},
	{open_exits, 1, "open_at_start", XL_TOPIC_RUN, "1 frame was already open"},
	{clock_fallback, 0, "clock_fallback", XL_TOPIC_RUN, "timestamps use clock_gettime"},
	{symbols_missing, 0, "symbols_missing", XL_TOPIC_RUN, "the capture has no symbols.json: functions are shown"},
	{symbols_mismatch, 0, "symbols_mismatch", XL_TOPIC_RUN, "the capture has no symbols.json: functions are"},
	{patch_failed, 0, "patch_failed", XL_TOPIC_RUN, "XRay could not patch the executable"},
	{no_functions, 0, "no_functions", XL_TOPIC_RUN, "no traced function ran during the capture window"},
	{samples_lost, 0, "samples_lost", XL_TOPIC_RUN, "7 instruction samples lost: 3 while the control thread"},
};

static void each_rule_says_its_one_thing(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rule_case *c = &cases[i];
		struct fixture x;
		clean(&x);
		c->change(&x);
		build(&x);
		const struct xl_warning *list = c->is_note ? x.m.notes : x.m.warnings;
		size_t n = c->is_note ? x.m.nnotes : x.m.nwarnings, other = c->is_note ? x.m.nwarnings : x.m.nnotes;
		if (n != 1 || other != 0 || strcmp(list[0].kind, c->kind) != 0)
			fail_msg("case %zu (%s): %zu warnings and %zu notes, the first '%s'", i, c->kind, x.m.nwarnings,
				 x.m.nnotes, n ? list[0].kind : "");
		if (!strstr(list[0].message, c->text))
			fail_msg("case %zu (%s): '%s' does not say '%s'", i, c->kind, list[0].message, c->text);
		assert_string_equal(list[0].topic, c->topic);
		assert_null(strchr(list[0].message, '\n'));
		release(&x.m);
	}
}

/* Several at once: in the order of the rules table, whatever the order of
 * the changes. */
static void warnings_keep_the_rules_order(void **state)
{
	(void)state;
	static const char *const want[] = {"truncated",      "corrupt_threads", "not_finalized",  "repaired_exits",
					   "deep_recursion", "clock_fallback",  "symbols_missing"};
	struct fixture x;
	clean(&x);
	symbols_missing(&x);
	clock_fallback(&x);
	deep(&x);
	repaired(&x);
	not_finalized(&x);
	three_corrupt_threads(&x);
	truncated(&x);
	build(&x);
	assert_int_equal(x.m.nwarnings, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < x.m.nwarnings; i++)
		assert_string_equal(x.m.warnings[i].kind, want[i]);
	release(&x.m);
}

/* A warning or note points at the part of the run it concerns: an
 * unfinished capture from where it stopped, a delayed window its span. */
static void spans_point_at_the_run(void **state)
{
	(void)state;
	struct fixture x;
	clean(&x);
	not_finalized(&x);
	build(&x);
	assert_int_equal(x.m.warnings[0].from_ns, 1500000000);
	assert_int_equal(x.m.warnings[0].to_ns, -1);
	release(&x.m);
	clean(&x);
	delayed(&x);
	build(&x);
	assert_int_equal(x.m.notes[0].from_ns, 500000000);
	assert_int_equal(x.m.notes[0].to_ns, 2000000000);
	release(&x.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_clean_capture_has_nothing_to_say),
		cmocka_unit_test(each_rule_says_its_one_thing),
		cmocka_unit_test(warnings_keep_the_rules_order),
		cmocka_unit_test(spans_point_at_the_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
