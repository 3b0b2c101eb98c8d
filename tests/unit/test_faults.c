/*
 * Unit tests: out of memory at every allocation.
 *
 * The libraries are linked with --wrap for each function they allocate
 * through (tests/unit/CMakeLists.txt); jansson allocates through the
 * symbols library's malloc (xl_json_loadfd), so its allocations fail too.  For N = 1, 2, ... the Nth allocation of one call fails,
 * until the call makes fewer than N allocations and must succeed.  Every
 * failing call must report its documented error and leave its output
 * empty; nothing may crash, and under ASan (scripts/test-sanitizers.sh)
 * nothing may leak.  The inputs are the captured run of tests/golden
 * (XL_GOLDEN_DIR) and a TOML document that uses every kind of value.
 * XL_FAULTS_TRACE=1 prints the stack of each allocation made to fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <execinfo.h>

#include <cmocka.h>

#include "analyze.h"
#include "buildinfo.h"
#include "diff.h"
#include "emit.h"
#include "emit_diff.h"
#include "symbols.h"
#include "toml.h"
#include "xl_errors.h"

#define CAPTURE XL_GOLDEN_DIR "/capture/two-parents"
/* A call that still allocates after this many is in a loop: stop there. */
#define MAX_ALLOCATIONS 1000000

static long fail_nth; /* 0: no allocation fails */
static long seen;     /* allocations since arm() */
static int hit;       /* the failure happened */

static void arm(long n)
{
	seen = 0;
	hit = 0;
	fail_nth = n;
}

static void disarm(void)
{
	fail_nth = 0;
}

static int fail_now(void)
{
	if (!fail_nth || ++seen != fail_nth)
		return 0;
	hit = 1;
	if (getenv("XL_FAULTS_TRACE")) { /* where it failed: addr2line -e test_faults the addresses */
		void *bt[16];
		backtrace_symbols_fd(bt, backtrace(bt, 16), 2);
		fputs("--\n", stderr);
	}
	errno = ENOMEM;
	return 1;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **out, const char *fmt, va_list ap);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_vasprintf(char **out, const char *fmt, va_list ap);

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	return fail_now() ? -1 : __real_vasprintf(out, fmt, ap);
}

/* One operation under test: run() returns its code (0 when it succeeded),
 * failed() checks what a failed call left, done() releases a success.
 * complete(), when there is one, says whether a call that succeeded
 * although an allocation failed has the whole result anyway (a library
 * that recovers: jansson's object tables, for one, grow or stay as they
 * are); without it such a success is an error. */
struct op {
	const char *what;
	int (*run)(void *ctx);
	void (*failed)(void *ctx, int rc);
	void (*done)(void *ctx);
	void *ctx;
	int (*complete)(void *ctx);
};

/* Fail the 1st, 2nd, ... allocation of op until it needs fewer; returns
 * how many it makes when none fails. */
static long fail_each(const struct op *op)
{
	for (long n = 1; n < MAX_ALLOCATIONS; n++) {
		arm(n);
		int rc = op->run(op->ctx);
		disarm();
		if (!hit) {
			if (rc != 0)
				fail_msg("%s: failed (%d) with no allocation failing", op->what, rc);
			op->done(op->ctx);
			print_message("%s: %ld allocations, each failed once\n", op->what, n - 1);
			return n - 1;
		}
		if (rc == 0) {
			if (!op->complete || !op->complete(op->ctx))
				fail_msg("%s: succeeded although allocation %ld of it failed", op->what, n);
			op->done(op->ctx);
			continue;
		}
		op->failed(op->ctx, rc);
	}
	fail_msg("%s: more than %d allocations", op->what, MAX_ALLOCATIONS);
	return 0;
}

/* xl_model_load: XL_ENOMEM, no model, a message. */
struct load {
	struct xl_model *m;
	char err[256];
};

static int load_run(void *ctx)
{
	struct load *l = ctx;
	l->m = (struct xl_model *)1; /* must be cleared on failure */
	l->err[0] = 0;
	return xl_model_load(CAPTURE, &l->m, l->err, sizeof(l->err));
}

static void load_failed(void *ctx, int rc)
{
	struct load *l = ctx;
	assert_int_equal(rc, XL_ENOMEM);
	assert_null(l->m);
	assert_true(l->err[0] != 0);
}

/* The model as the JSON summary has it (every member but the timeline). */
static char *summary(const struct xl_model *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	assert_int_equal(xl_emit_json(m, f, &o), 0);
	fclose(f);
	return text;
}

static char *reference_summary;

static int load_complete(void *ctx)
{
	struct load *l = ctx;
	char *s = summary(l->m);
	int same = strcmp(s, reference_summary) == 0;
	free(s);
	return same;
}

static void load_done(void *ctx)
{
	struct load *l = ctx;
	assert_non_null(l->m);
	assert_int_equal(l->m->nthreads, 1);
	xl_model_free(l->m);
}

static void model_load_fails_cleanly(void **state)
{
	(void)state;
	struct load l;
	struct op op = {"xl_model_load", load_run, load_failed, load_done, &l, load_complete};
	assert_int_equal(load_run(&l), 0);
	reference_summary = summary(l.m);
	xl_model_free(l.m);
	assert_true(fail_each(&op) > 10);
	free(reference_summary);
}

/* xl_symbols_load_json: XL_ENOMEM, an empty table, a message. */
struct syms {
	struct xl_symtab tab;
	char err[256];
};

static int syms_run(void *ctx)
{
	struct syms *s = ctx;
	memset(&s->tab, 0xff, sizeof(s->tab)); /* must be emptied on failure */
	s->err[0] = 0;
	return xl_symbols_load_json(CAPTURE "/symbols.json", &s->tab, s->err, sizeof(s->err));
}

static void syms_failed(void *ctx, int rc)
{
	struct syms *s = ctx;
	assert_int_equal(rc, XL_ENOMEM);
	assert_null(s->tab.syms);
	assert_int_equal(s->tab.count, 0);
	assert_null(s->tab.executable);
	assert_true(s->err[0] != 0);
	xl_symtab_release(&s->tab);
}

static int syms_complete(void *ctx)
{
	static const char *const names[] = {"main", "alpha", "beta", "leaf"};
	struct syms *s = ctx;
	if (s->tab.count != 4 || !s->tab.executable || strlen(s->tab.build_id) != 40)
		return 0;
	for (size_t i = 0; i < 4; i++)
		if (strcmp(s->tab.syms[i].name, names[i]) != 0 || !s->tab.syms[i].file || !s->tab.syms[i].line)
			return 0;
	return 1;
}

static void syms_done(void *ctx)
{
	struct syms *s = ctx;
	assert_int_equal(s->tab.count, 4);
	assert_string_equal(s->tab.syms[3].name, "leaf");
	xl_symtab_release(&s->tab);
}

static void symbols_load_fails_cleanly(void **state)
{
	(void)state;
	struct syms s;
	struct op op = {"xl_symbols_load_json", syms_run, syms_failed, syms_done, &s, syms_complete};
	assert_true(fail_each(&op) > 4);
}

/* xl_sidecar_read: XL_ENOMEM and an empty info; the exe.profile.json is
 * written by the test, beside a name in a temporary directory. */
struct sidecar {
	char exe[64];
	struct xl_sidecar_info info;
	char err[512];
};

static int sidecar_run(void *ctx)
{
	struct sidecar *x = ctx;
	memset(&x->info, 0xff, sizeof(x->info)); /* must be emptied on failure */
	x->err[0] = 0;
	return xl_sidecar_read(x->exe, &x->info, x->err, sizeof(x->err));
}

static void sidecar_failed(void *ctx, int rc)
{
	struct sidecar *x = ctx;
	assert_int_equal(rc, XL_ENOMEM);
	assert_null(x->info.untraced_libs);
	assert_true(x->err[0] != 0);
}

static int sidecar_complete(void *ctx)
{
	struct sidecar *x = ctx;
	char **v = x->info.untraced_libs;
	return x->info.mode == XL_MODE_ALL && strcmp(x->info.build_id, "8fe148ac") == 0 && v && v[0] && v[1] && !v[2] &&
	       strcmp(v[0], "/p/libone.so") == 0 && strcmp(v[1], "/p/libtwo.so") == 0;
}

static void sidecar_done(void *ctx)
{
	struct sidecar *x = ctx;
	assert_true(sidecar_complete(x));
	xl_sidecar_info_release(&x->info);
}

static void sidecar_read_fails_cleanly(void **state)
{
	(void)state;
	struct sidecar x;
	char dir[] = "/tmp/xl-faults-XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(x.exe, sizeof(x.exe), "%s/app", dir);
	snprintf(path, sizeof(path), "%s.profile.json", x.exe);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"exaloop.profile/1\", \"mode\": \"all\", \"build_id\": \"8fe148ac\",\n"
	      " \"untraced_libraries\": [\"/p/libone.so\", \"/p/libtwo.so\"]}\n",
	      f);
	fclose(f);
	struct op op = {"xl_sidecar_read", sidecar_run, sidecar_failed, sidecar_done, &x, sidecar_complete};
	assert_true(fail_each(&op) > 4);
	unlink(path);
	rmdir(dir);
}

/* xl_toml_parse: NULL and "out of memory". */
static const char toml_doc[] = "title = \"every kind of value\"\n"
			       "[profile]\n"
			       "buffer_size = \"64MiB\"\n"
			       "interval = 1_000\n"
			       "ratio = 0.5e-3\n"
			       "on = true\n"
			       "when = 1979-05-27T07:32:00-08:00\n"
			       "day = 1979-05-27\n"
			       "list = [1, [\"a\", 'b'], {x = 1}]\n"
			       "multi = \"\"\"\nline\\nline\"\"\"\n"
			       "[[targets.app.runs]]\n"
			       "args = [\"in.json\"]\n"
			       "[[targets.app.runs]]\n"
			       "args = []\n"
			       "\"quoted key\".dotted.key = 0x1f\n"
			       "[many]\n"
			       "k1 = 1\nk2 = 2\nk3 = 3\nk4 = 4\nk5 = 5\nk6 = 6\nk7 = 7\nk8 = 8\nk9 = 9\nk10 = 10\n";

struct toml {
	struct xl_toml_value *root;
	struct xl_toml_error err;
};

static int toml_run(void *ctx)
{
	struct toml *t = ctx;
	memset(&t->err, 0, sizeof(t->err));
	t->root = xl_toml_parse(toml_doc, sizeof(toml_doc) - 1, "faults.toml", &t->err);
	return t->root ? 0 : -1;
}

static void toml_failed(void *ctx, int rc)
{
	struct toml *t = ctx;
	(void)rc;
	assert_string_equal(t->err.message, "out of memory");
}

/* The tree as text: every key, type and scalar, and lookups by key (which
 * use the table's index once it has INDEX_MIN_ENTRIES entries). */
static void toml_dump(const struct xl_toml_value *v, FILE *f)
{
	enum xl_toml_type type = xl_toml_type_of(v);
	fprintf(f, "%s", xl_toml_type_name(type));
	const char *str;
	size_t len;
	int64_t i;
	double d;
	bool b;
	if (type == XL_TOML_TABLE) {
		struct xl_toml_entry e;
		fputs("{", f);
		for (size_t k = 0; xl_toml_table_entry(v, k, &e); k++) {
			fprintf(f, "%.*s%s=", (int)e.key_len, e.key,
				xl_toml_table_getn(v, e.key, e.key_len) == e.value ? "" : "(lookup!)");
			toml_dump(e.value, f);
			fputs(",", f);
		}
		fputs("}", f);
	} else if (type == XL_TOML_ARRAY) {
		fputs("[", f);
		for (size_t k = 0; k < xl_toml_array_len(v); k++) {
			toml_dump(xl_toml_array_at(v, k), f);
			fputs(",", f);
		}
		fputs("]", f);
	} else if (xl_toml_as_string(v, &str, &len))
		fprintf(f, ":%.*s", (int)len, str);
	else if (xl_toml_as_int(v, &i))
		fprintf(f, ":%lld", (long long)i);
	else if (xl_toml_as_float(v, &d))
		fprintf(f, ":%g", d);
	else if (xl_toml_as_bool(v, &b))
		fprintf(f, ":%d", b);
}

static char *toml_text(const struct xl_toml_value *root)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	toml_dump(root, f);
	fclose(f);
	return text;
}

static char *reference_toml;

/* The table index is an acceleration: without memory for it the parser
 * keeps the table and looks keys up one by one (toml.c, index_update). */
static int toml_complete(void *ctx)
{
	struct toml *t = ctx;
	char *text = toml_text(t->root);
	int same = strcmp(text, reference_toml) == 0;
	free(text);
	return same;
}

static void toml_done(void *ctx)
{
	struct toml *t = ctx;
	xl_toml_free(t->root);
}

static void toml_parse_fails_cleanly(void **state)
{
	(void)state;
	struct toml t;
	struct op op = {"xl_toml_parse", toml_run, toml_failed, toml_done, &t, toml_complete};
	assert_int_equal(toml_run(&t), 0);
	reference_toml = toml_text(t.root);
	xl_toml_free(t.root);
	assert_true(fail_each(&op) > 20);
	free(reference_toml);
}

/* xl_diff_build: XL_ENOMEM and an empty diff (safe to free). */
struct diff {
	struct xl_diff_side base, new_;
	struct xl_diff d;
};

static int diff_run(void *ctx)
{
	struct diff *x = ctx;
	return xl_diff_build(&x->base, &x->new_, 1, &x->d);
}

static void diff_failed(void *ctx, int rc)
{
	struct diff *x = ctx;
	assert_int_equal(rc, XL_ENOMEM);
	assert_null(x->d.funcs);
	assert_null(x->d.nodes);
	assert_int_equal(x->d.nfuncs, 0);
	assert_int_equal(x->d.nnodes, 0);
	xl_diff_free(&x->d);
}

static void diff_done(void *ctx)
{
	struct diff *x = ctx;
	assert_int_equal(x->d.nfuncs, 4);
	xl_diff_free(&x->d);
}

static struct xl_model *load(void)
{
	struct xl_model *m = NULL;
	char err[256];
	int rc = xl_model_load(CAPTURE, &m, err, sizeof(err));
	if (rc != XL_OK)
		fail_msg("%s: %s", CAPTURE, err);
	return m;
}

static void diff_build_fails_cleanly(void **state)
{
	(void)state;
	struct xl_model *runs[3] = {load(), load(), load()};
	struct diff x = {.base = {runs, 1}, .new_ = {runs + 1, 2}};
	struct op op = {"xl_diff_build", diff_run, diff_failed, diff_done, &x, NULL};
	assert_true(fail_each(&op) > 4);
	for (int i = 0; i < 3; i++)
		xl_model_free(runs[i]);
}

/* The emitters: a failure (non-zero) rather than a document with parts
 * left out. */
struct emit {
	const struct xl_model *m;
	const struct xl_diff *d;
	xl_emit_fn fn;
	int (*diff_fn)(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o);
	FILE *f;
	struct xl_emit_opts o;
	struct xl_diff_opts dopts;
};

static int emit_run(void *ctx)
{
	struct emit *e = ctx;
	rewind(e->f);
	assert_int_equal(ftruncate(fileno(e->f), 0), 0);
	int rc = e->fn ? e->fn(e->m, e->f, &e->o) : e->diff_fn(e->d, e->f, &e->dopts);
	return fflush(e->f) != 0 ? -1 : rc;
}

static void emit_failed(void *ctx, int rc)
{
	(void)ctx;
	assert_true(rc < 0);
}

static void emit_done(void *ctx)
{
	struct emit *e = ctx;
	assert_true(ftell(e->f) > 0);
}

static void emitters_fail_cleanly(void **state)
{
	(void)state;
	struct xl_model *m = load();
	static const char *const formats[] = {"json", "text", "folded", "chrome", "html", "perfetto", "pprof"};
	struct emit e = {.m = m, .f = tmpfile()};
	assert_non_null(e.f);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		xl_emit_opts_init(&e.o);
		e.o.timeline = 1;
		e.fn = xl_emitter(formats[i]);
		assert_non_null(e.fn);
		char what[64];
		snprintf(what, sizeof(what), "xl_emit %s", formats[i]);
		struct op op = {what, emit_run, emit_failed, emit_done, &e, NULL};
		fail_each(&op);
	}
	struct xl_model *runs[2] = {m, load()};
	struct xl_diff d;
	struct xl_diff_side base = {runs, 1}, new_ = {runs + 1, 1};
	assert_int_equal(xl_diff_build(&base, &new_, 0, &d), XL_OK);
	int (*const diff_fns[])(const struct xl_diff *, FILE *, const struct xl_diff_opts *) = {
		xl_emit_diff_json, xl_emit_diff_text, xl_emit_diff_html};
	static const char *const diff_names[] = {"xl_emit_diff_json", "xl_emit_diff_text", "xl_emit_diff_html"};
	e.fn = NULL;
	e.d = &d;
	for (size_t i = 0; i < 3; i++) {
		e.diff_fn = diff_fns[i];
		struct op op = {diff_names[i], emit_run, emit_failed, emit_done, &e, NULL};
		fail_each(&op);
	}
	xl_diff_free(&d);
	fclose(e.f);
	xl_model_free(runs[1]);
	xl_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_load_fails_cleanly),   cmocka_unit_test(symbols_load_fails_cleanly),
		cmocka_unit_test(sidecar_read_fails_cleanly), cmocka_unit_test(toml_parse_fails_cleanly),
		cmocka_unit_test(diff_build_fails_cleanly),   cmocka_unit_test(emitters_fail_cleanly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
