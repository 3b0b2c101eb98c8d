/* Unit tests: the option parser and subcommand dispatcher (src/cli/options.c).
 * Errors and usage go to stderr/stdout; the tests check what was parsed and
 * the exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd.h"
#include "exitcode.h"
#include "options.h"

/* A command with one option of every kind. */
struct parsed {
	int verbose;
	const char *format;
	const char *out;
	int level;
	const char *mode;
	int mode_seen;
	int n;
	const char *args[16];
};

static int parse_level(const char *value, void *dest)
{
	if (strcmp(value, "bad") == 0)
		return -1;
	*(int *)dest = (int)strlen(value);
	return 0;
}

static int parse_mode(const char *value, void *dest)
{
	struct parsed *p = dest;
	p->mode_seen++;
	p->mode = value;
	return 0;
}

/* Parse a copy of the arguments (argv[0] = "thing"); returns the parser's result. */
static int parse(struct parsed *p, unsigned flags, int argc, const char **in)
{
	memset(p, 0, sizeof(*p));
	const struct xl_option opts[] = {
		XL_OPT_BOOL('v', "verbose", &p->verbose, "say more"),
		XL_OPT_SET(0, "text", &p->format, "text", "text"),
		XL_OPT_SET(0, "json", &p->format, "json", "json"),
		XL_OPT_STRING('o', "output", &p->out, "OUT", "write to OUT"),
		XL_OPT_PARSE(0, "level", &p->level, "L", "a level", parse_level),
		XL_OPT_OPTARG(0, "mode", p, "M", "a mode", parse_mode),
		XL_OPT_END(),
	};
	const struct xl_usage u = {"thing", "ARG...", "A test command.", opts, NULL, NULL};
	const char *argv[18] = {"thing"};
	for (int i = 0; i < argc; i++)
		argv[i + 1] = in[i];
	int rc = xl_parse_options(&u, argc + 1, argv, flags, &p->n);
	if (rc == XL_OPTS_PARSED) {
		for (int i = 0; i < p->n; i++)
			p->args[i] = argv[i + 1];
		assert_null(argv[p->n + 1]);
	}
	return rc;
}

#define PARSE(p, flags, ...)                                                                 \
	parse(p, flags, (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), \
	      (const char *[]){__VA_ARGS__})

static void attached_and_separate_values_agree(void **state)
{
	(void)state;
	struct parsed a, b, c;
	assert_int_equal(PARSE(&a, 0, "--output=x", "--level=abc", "in"), XL_OPTS_PARSED);
	assert_int_equal(PARSE(&b, 0, "--output", "x", "--level", "abc", "in"), XL_OPTS_PARSED);
	assert_int_equal(PARSE(&c, 0, "-ox", "in", "--level", "abc"), XL_OPTS_PARSED);
	struct parsed *all[] = {&a, &b, &c};
	for (int i = 0; i < 3; i++) {
		assert_string_equal(all[i]->out, "x");
		assert_int_equal(all[i]->level, 3);
		assert_int_equal(all[i]->n, 1);
		assert_string_equal(all[i]->args[0], "in");
	}
	assert_int_equal(PARSE(&a, 0, "-o", "y"), XL_OPTS_PARSED);
	assert_string_equal(a.out, "y");
	assert_int_equal(a.n, 0);
	/* an empty attached value is a value */
	assert_int_equal(PARSE(&a, 0, "--output="), XL_OPTS_PARSED);
	assert_string_equal(a.out, "");
}

static void flags_set_and_positionals_in_order(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, 0, "a", "-v", "b", "--json", "-", "--text", "c"), XL_OPTS_PARSED);
	assert_int_equal(p.verbose, 1);
	assert_string_equal(p.format, "text"); /* the last choice wins */
	assert_int_equal(p.n, 4);
	assert_string_equal(p.args[0], "a");
	assert_string_equal(p.args[1], "b");
	assert_string_equal(p.args[2], "-"); /* a lone '-' is an argument */
	assert_string_equal(p.args[3], "c");
}

static void double_dash_ends_options(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, 0, "-v", "--", "--text", "-o"), XL_OPTS_PARSED);
	assert_int_equal(p.verbose, 1);
	assert_null(p.format);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.args[0], "--text");
	assert_string_equal(p.args[1], "-o");
}

static void stop_at_first_argument(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, XL_OPTS_STOP_AT_ARG, "-v", "./app", "--text", "-v"), XL_OPTS_PARSED);
	assert_int_equal(p.verbose, 1);
	assert_null(p.format);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.args[0], "./app");
	assert_string_equal(p.args[1], "--text");
	assert_string_equal(p.args[2], "-v");
}

static void optional_value_is_attached_only(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, 0, "--mode", "x"), XL_OPTS_PARSED);
	assert_int_equal(p.mode_seen, 1);
	assert_null(p.mode);
	assert_int_equal(p.n, 1);
	assert_int_equal(PARSE(&p, 0, "--mode=fast"), XL_OPTS_PARSED);
	assert_string_equal(p.mode, "fast");
}

static void errors_are_usage_errors(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, 0, "--nope"), XL_EXIT_USAGE);
	assert_int_equal(PARSE(&p, 0, "-x"), XL_EXIT_USAGE);
	assert_int_equal(PARSE(&p, 0, "-vx"), XL_EXIT_USAGE);        /* no bundling */
	assert_int_equal(PARSE(&p, 0, "--verb"), XL_EXIT_USAGE);     /* no abbreviations */
	assert_int_equal(PARSE(&p, 0, "--output"), XL_EXIT_USAGE);   /* missing value */
	assert_int_equal(PARSE(&p, 0, "--text=yes"), XL_EXIT_USAGE); /* a flag takes no value */
	assert_int_equal(PARSE(&p, 0, "--level", "bad"), XL_EXIT_USAGE);
	assert_int_equal(PARSE(&p, 0, "--level=bad"), XL_EXIT_USAGE);
}

static void help_exits_zero_wherever_it_is(void **state)
{
	(void)state;
	struct parsed p;
	assert_int_equal(PARSE(&p, 0, "--help"), XL_EXIT_OK);
	assert_int_equal(PARSE(&p, 0, "a", "-v", "-h"), XL_EXIT_OK);
	/* after '--' or (stopping) after the first argument it is an argument */
	assert_int_equal(PARSE(&p, 0, "--", "--help"), XL_OPTS_PARSED);
	assert_int_equal(PARSE(&p, XL_OPTS_STOP_AT_ARG, "./app", "--help"), XL_OPTS_PARSED);
	assert_int_equal(p.n, 2);
}

/* ---------------------------------------------------------------- dispatch */

static int called;
static const char *called_with[8];

static int sub_a(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	called = argc;
	for (int i = 0; i < argc && i < 8; i++)
		called_with[i] = argv[i];
	return 42;
}

static int dispatch(int argc, const char **in)
{
	static const struct xl_subcommand subs[] = {
		{"alpha", sub_a, "the first"},
		{"beta", sub_a, "the second"},
		{NULL, NULL, NULL},
	};
	static const struct xl_usage u = {"group", NULL, "Two subcommands.", NULL, subs, NULL};
	const char *argv[10] = {"group"};
	for (int i = 0; i < argc; i++)
		argv[i + 1] = in[i];
	called = -1;
	struct xl_ctx ctx = {0};
	return xl_dispatch(&u, argc + 1, argv, &ctx);
}

#define DISPATCH(...) \
	dispatch((int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), (const char *[]){__VA_ARGS__})

static void dispatch_runs_the_subcommand(void **state)
{
	(void)state;
	assert_int_equal(DISPATCH("beta", "--x", "y"), 42);
	assert_int_equal(called, 3);
	assert_string_equal(called_with[0], "beta");
	assert_string_equal(called_with[1], "--x");
	assert_string_equal(called_with[2], "y");
	assert_int_equal(DISPATCH("--help"), XL_EXIT_OK);
	assert_int_equal(called, -1);
	assert_int_equal(DISPATCH("gamma"), XL_EXIT_USAGE);
	assert_int_equal(DISPATCH("--frob", "alpha"), XL_EXIT_USAGE);
	assert_int_equal(called, -1);
	assert_int_equal(dispatch(0, NULL), XL_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(attached_and_separate_values_agree),
		cmocka_unit_test(flags_set_and_positionals_in_order),
		cmocka_unit_test(double_dash_ends_options),
		cmocka_unit_test(stop_at_first_argument),
		cmocka_unit_test(optional_value_is_attached_only),
		cmocka_unit_test(errors_are_usage_errors),
		cmocka_unit_test(help_exits_zero_wherever_it_is),
		cmocka_unit_test(dispatch_runs_the_subcommand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
