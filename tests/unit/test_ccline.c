/* Unit tests: reading compiler command lines (src/cli/ccline.c), the
 * compiler wrappers' decision of what a clang invocation does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ccline.h"

#define ARGV(...) ((const char *[]){__VA_ARGS__})
#define ARGC(...) ((int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)))
#define PARSE(cl, ...) xl_ccline_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), cl, err, sizeof(err))

static char err[512];

static enum xl_ccstep step_of(int argc, const char **argv)
{
	struct xl_ccline cl;
	assert_int_equal(xl_ccline_parse(argc, argv, &cl, err, sizeof(err)), 0);
	enum xl_ccstep s = cl.step;
	xl_ccline_release(&cl);
	return s;
}
#define STEP(...) step_of(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void steps(void **state)
{
	(void)state;
	assert_int_equal(STEP("-c", "a.c", "-o", "a.o"), XL_CC_COMPILE);
	assert_int_equal(STEP("-S", "a.c"), XL_CC_COMPILE);
	assert_int_equal(STEP("-fsyntax-only", "a.c"), XL_CC_COMPILE);
	assert_int_equal(STEP("-E", "a.c"), XL_CC_PREPROCESS);
	assert_int_equal(STEP("-M", "a.c"), XL_CC_PREPROCESS);
	assert_int_equal(STEP("-MM", "-MF", "a.d", "a.c"), XL_CC_PREPROCESS);
	assert_int_equal(STEP("-E", "-x", "c", "-"), XL_CC_PREPROCESS);
	/* -MD and -MMD write dependencies beside a compile or a link */
	assert_int_equal(STEP("-c", "-MD", "-MF", "a.d", "a.c"), XL_CC_COMPILE);
	assert_int_equal(STEP("-MMD", "a.c", "-o", "app"), XL_CC_LINK_EXE);
	assert_int_equal(STEP("a.o", "b.o", "-o", "app", "-lm"), XL_CC_LINK_EXE);
	assert_int_equal(STEP("conftest.c"), XL_CC_LINK_EXE);
	assert_int_equal(STEP("-shared", "-fPIC", "a.o", "-o", "liba.so"), XL_CC_LINK_SHARED);
	assert_int_equal(STEP("-r", "a.o", "b.o", "-o", "ab.o"), XL_CC_LINK_OTHER);
	assert_int_equal(STEP("--version"), XL_CC_INFO);
	assert_int_equal(STEP("-v"), XL_CC_INFO);
	assert_int_equal(STEP("-dumpversion"), XL_CC_INFO);
	assert_int_equal(STEP("-print-file-name=libc.so"), XL_CC_INFO);
	assert_int_equal(STEP("-print-prog-name=ld"), XL_CC_INFO);
	assert_int_equal(STEP("-O2"), XL_CC_INFO); /* no input: the driver complains itself */
}

static void values_are_not_inputs(void **state)
{
	(void)state;
	struct xl_ccline cl;
	assert_int_equal(PARSE(&cl, "-MF", "deps.d", "-MT", "x.o", "-I", "inc", "-x", "c", "-include", "cfg.h", "-o",
			       "out", "-L", "lib", "-l", "m", "-lz", "-Llib2", "-Xlinker", "-zdefs", "main.c", "u.o"),
			 0);
	assert_int_equal(cl.ninputs, 2);
	assert_string_equal(cl.inputs[0], "main.c");
	assert_string_equal(cl.inputs[1], "u.o");
	assert_string_equal(cl.output, "out");
	assert_string_equal(xl_ccline_exe(&cl), "out");
	assert_int_equal(cl.nlibdirs, 2);
	assert_string_equal(cl.libdirs[1], "lib2");
	assert_int_equal(cl.nlibs, 2);
	assert_string_equal(cl.libs[0], "m");
	assert_string_equal(cl.libs[1], "z");
	assert_int_equal(cl.step, XL_CC_LINK_EXE);
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "main.c"), 0);
	assert_string_equal(xl_ccline_exe(&cl), "a.out");
	xl_ccline_release(&cl);
}

static void response_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/xl-ccline-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char rsp[64], inner[64];
	snprintf(rsp, sizeof(rsp), "%s/args.rsp", dir);
	snprintf(inner, sizeof(inner), "%s/more.rsp", dir);
	FILE *f = fopen(inner, "w");
	fputs("-shared\n", f);
	fclose(f);
	f = fopen(rsp, "w");
	fprintf(f, "-o 'lib with space.so'  \"b.o\"\n\ta\\ b.o @%s\n", inner);
	fclose(f);
	char at[80];
	snprintf(at, sizeof(at), "@%s", rsp);
	struct xl_ccline cl;
	assert_int_equal(PARSE(&cl, at), 0);
	assert_int_equal(cl.step, XL_CC_LINK_SHARED);
	assert_string_equal(cl.output, "lib with space.so");
	assert_int_equal(cl.ninputs, 2);
	assert_string_equal(cl.inputs[0], "b.o");
	assert_string_equal(cl.inputs[1], "a b.o");
	xl_ccline_release(&cl);
	/* an unreadable @file is an input, as for clang */
	assert_int_equal(PARSE(&cl, "-c", "@/nonexistent/x.rsp"), 0);
	assert_int_equal(cl.ninputs, 1);
	assert_string_equal(cl.inputs[0], "@/nonexistent/x.rsp");
	xl_ccline_release(&cl);
	unlink(inner);
	unlink(rsp);
	rmdir(dir);
}

static void probes(void **state)
{
	(void)state;
	struct xl_ccline cl;
	assert_int_equal(PARSE(&cl, "-o", "conftest", "conftest.c"), 0);
	assert_true(xl_ccline_is_probe(&cl));
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "conftest.c", "-lm"), 0); /* a.out of autoconf's first check */
	assert_true(xl_ccline_is_probe(&cl));
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "-o", "cmTC_1a2b3", "x.o"), 0);
	assert_true(xl_ccline_is_probe(&cl));
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "-o", "build/CMakeFiles/3.25.1/CompilerIdC/a.out", "x.c"), 0);
	assert_true(xl_ccline_is_probe(&cl));
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "-x", "c++", "-", "-o", "/tmp/leveldb_build_detect_platform-42"), 0);
	assert_true(xl_ccline_is_probe(&cl)); /* a source on stdin */
	xl_ccline_release(&cl);
	assert_int_equal(PARSE(&cl, "-o", "src/lua", "lua.o", "liblua.a"), 0);
	assert_false(xl_ccline_is_probe(&cl));
	xl_ccline_release(&cl);
	assert_true(xl_cc_is_source("a.cpp"));
	assert_false(xl_cc_is_source("a.o"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps),
		cmocka_unit_test(values_are_not_inputs),
		cmocka_unit_test(response_files),
		cmocka_unit_test(probes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
