/* Unit tests: splitting `run`/`build` command lines (src/cli/args.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "args.h"
#include "ccline.h"
#include "xl_array.h"

#define ARGV(...) ((const char *[]){__VA_ARGS__})
#define ARGC(...) ((int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)))
#define SPLIT(out, output_ok, ...) \
	xl_split_build_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), output_ok, is_global, out, err, sizeof(err))

static char err[512];

/* The caller's global options (exaloop's are globals.c's). */
static int is_global(const char *arg)
{
	return !strcmp(arg, "--no-open") || !strncmp(arg, "--profile", 9);
}

static void release_and_sources(void **state)
{
	(void)state;
	struct xl_build_args a;
	assert_int_equal(SPLIT(&a, 0, "run", "-release", "-lgc", "-I", "inc", "-DX=1", "app.c", "input.json"), 0);
	assert_true(a.release);
	assert_int_equal(a.nsources, 1);
	assert_string_equal(a.sources[0], "app.c");
	assert_int_equal(a.nflags, 4);
	assert_string_equal(a.flags[0], "-lgc");
	assert_string_equal(a.flags[1], "-I");
	assert_string_equal(a.flags[2], "inc");
	assert_string_equal(a.flags[3], "-DX=1");
	assert_int_equal(a.nprog, 1);
	assert_string_equal(a.prog_args[0], "input.json");
	assert_null(a.prog_args[1]);
	xl_build_args_release(&a);
}

static void program_args_untouched(void **state)
{
	(void)state;
	struct xl_build_args a;
	/* after the source, flags that look like exaloop's or the compiler's belong to the program */
	assert_int_equal(SPLIT(&a, 0, "run", "app.c", "--profile", "-release", "--no-open", "-o", "x", "--"), 0);
	assert_false(a.release);
	assert_int_equal(a.nprog, 6);
	assert_string_equal(a.prog_args[0], "--profile");
	assert_string_equal(a.prog_args[5], "--");
	xl_build_args_release(&a);
}

static void several_sources_and_double_dash(void **state)
{
	(void)state;
	struct xl_build_args a;
	assert_int_equal(SPLIT(&a, 1, "build", "-release", "main.c", "util.cc", "-o", "app", "-lgc"), 0);
	assert_int_equal(a.nsources, 2);
	assert_string_equal(a.output, "app");
	assert_int_equal(a.nflags, 1);
	assert_int_equal(a.nprog, 0); /* build: options may follow the sources */
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 1, "build", "main.c", "input.json"), -1);
	assert_non_null(strstr(err, "'build' takes no program arguments"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 1, "build", "-o", "app", "main.c", "util.cc"), 0);
	assert_string_equal(a.output, "app");
	assert_int_equal(a.nsources, 2);
	assert_int_equal(a.nprog, 0);
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "main.c", "--", "data.c"), 0);
	assert_int_equal(a.nsources, 1);
	assert_int_equal(a.nprog, 1);
	assert_string_equal(a.prog_args[0], "data.c");
	xl_build_args_release(&a);
}

static void global_option_after_subcommand(void **state)
{
	(void)state;
	struct xl_build_args a;
	assert_int_equal(SPLIT(&a, 0, "run", "--profile=memory", "app.c"), -1);
	assert_non_null(strstr(err, "'--profile' must come before 'run'"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "--no-open", "app.c"), -1);
	assert_non_null(strstr(err, "'--no-open' must come before 'run'"));
	xl_build_args_release(&a);
}

static void bad_input(void **state)
{
	(void)state;
	struct xl_build_args a;
	assert_int_equal(SPLIT(&a, 0, "run", "-x", "app.c"), -1);
	assert_non_null(strstr(err, "unknown build option '-x'"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "-release"), -1);
	assert_non_null(strstr(err, "no source file given"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "input.json"), -1);
	assert_non_null(strstr(err, "'input.json' is not a source file"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "-o", "x", "app.c"), -1);
	assert_non_null(strstr(err, "'-o' is an option of 'build'"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "-I"), -1);
	assert_non_null(strstr(err, "'-I' needs a value"));
	xl_build_args_release(&a);
}

static void languages(void **state)
{
	(void)state;
	assert_int_equal(xl_source_lang("a.c"), XL_LANG_C);
	assert_int_equal(xl_source_lang("dir.x/a.cpp"), XL_LANG_CXX);
	assert_int_equal(xl_source_lang("a.cc"), XL_LANG_CXX);
	assert_int_equal(xl_source_lang("a.cxx"), XL_LANG_CXX);
	assert_int_equal(xl_source_lang("app.codon"), XL_LANG_CODON);
	assert_int_equal(xl_source_lang("input.json"), XL_LANG_NONE);
	assert_int_equal(xl_source_lang(".c"), XL_LANG_NONE);
	struct xl_build_args a;
	assert_int_equal(SPLIT(&a, 0, "run", "-shared", "lib.c"), 0);
	assert_true(a.shared);
	xl_build_args_release(&a);
}

/* One suffix rule for `run`/`build` and the compiler wrappers: every
 * suffix clang's driver compiles without -x is a source of its language to
 * both, and both refuse or pass on the same files. */
static void one_suffix_rule(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		enum xl_lang lang;
		int run; /* `run` takes it as an input */
	} cases[] = {
		{"a.c", XL_LANG_C, 1},         {"a.i", XL_LANG_C, 1},      {"a.cc", XL_LANG_CXX, 1},
		{"a.cp", XL_LANG_CXX, 1},      {"a.cxx", XL_LANG_CXX, 1},  {"a.cpp", XL_LANG_CXX, 1},
		{"a.CPP", XL_LANG_CXX, 1},     {"a.c++", XL_LANG_CXX, 1},  {"a.C", XL_LANG_CXX, 1},
		{"a.ii", XL_LANG_CXX, 1},      {"a.m", XL_LANG_OBJC, 0},   {"a.mm", XL_LANG_OBJCXX, 0},
		{"a.codon", XL_LANG_CODON, 1}, {"a.o", XL_LANG_OBJECT, 1}, {"a.a", XL_LANG_OBJECT, 1},
		{"a.h", XL_LANG_NONE, 0},      {"a.s", XL_LANG_NONE, 0},   {"input.json", XL_LANG_NONE, 0},
		{"c", XL_LANG_NONE, 0},        {".cc", XL_LANG_NONE, 0},
	};
	for (size_t i = 0; i < XL_ARRAY_SIZE(cases); i++) {
		enum xl_lang l = cases[i].lang;
		assert_int_equal(xl_source_lang(cases[i].path), l);
		int clang_source = l == XL_LANG_C || l == XL_LANG_CXX || l == XL_LANG_OBJC || l == XL_LANG_OBJCXX;
		assert_int_equal(xl_cc_is_source(cases[i].path), clang_source);
		struct xl_build_args a;
		int rc = SPLIT(&a, 0, "run", cases[i].path);
		assert_int_equal(rc, cases[i].run ? 0 : -1);
		if (l == XL_LANG_OBJC || l == XL_LANG_OBJCXX)
			assert_non_null(strstr(err, "is an Objective-C source: 'run' builds C and C++"));
		else if (!cases[i].run)
			assert_non_null(strstr(err, "C++: .cc .cp .cxx .cpp .CPP .c++ .C .ii"));
		xl_build_args_release(&a);
	}
}

static void objects_jobs_and_link_hint(void **state)
{
	(void)state;
	struct xl_build_args a;
	assert_int_equal(xl_source_lang("lib/util.o"), XL_LANG_OBJECT);
	assert_int_equal(xl_source_lang("libx.a"), XL_LANG_OBJECT);
	assert_int_equal(SPLIT(&a, 0, "run", "-j3", "main.cc", "util.o", "libx.a", "a.c", "in", "-lm"), 0);
	assert_int_equal(a.jobs, 3);
	assert_int_equal(a.nsources, 4);
	assert_string_equal(a.sources[1], "util.o");
	assert_int_equal(a.nprog, 2);
	assert_string_equal(xl_link_like_arg(&a), "-lm");
	assert_false(a.dashdash);
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "-j", "2", "a.c", "--", "x.o"), 0);
	assert_int_equal(a.jobs, 2);
	assert_true(a.dashdash);
	assert_string_equal(xl_link_like_arg(&a), "x.o"); /* the caller skips the hint after -- */
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 0, "run", "a.c", "input.txt"), 0);
	assert_null(xl_link_like_arg(&a));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 1, "build", "a.c", "-j0"), -1);
	assert_non_null(strstr(err, "'-j' needs a number"));
	xl_build_args_release(&a);
	assert_int_equal(SPLIT(&a, 1, "build", "a.c", "-jx"), -1);
	xl_build_args_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(release_and_sources),
		cmocka_unit_test(program_args_untouched),
		cmocka_unit_test(several_sources_and_double_dash),
		cmocka_unit_test(global_option_after_subcommand),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(languages),
		cmocka_unit_test(one_suffix_rule),
		cmocka_unit_test(objects_jobs_and_link_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
