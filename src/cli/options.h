/*
 * options.h - declarative command lines: one option table per command, one
 * parser, generated usage, one subcommand dispatcher.
 *
 * A command describes itself with a struct xl_usage (its name as typed
 * after `exaloop`, its positional arguments, one line of what it does) and,
 * when it has options, a table built in the function that parses them (the
 * destinations are its locals), ended by XL_OPT_END():
 *
 *	const char *out = NULL;
 *	int verbose = 0;
 *	const struct xl_option opts[] = {
 *		XL_OPT_BOOL(0, "verbose", &verbose, "say more"),
 *		XL_OPT_STRING('o', NULL, &out, "OUT", "write to OUT"),
 *		XL_OPT_END(),
 *	};
 *	const struct xl_usage u = {"thing do", "INPUT", "do the thing", opts, NULL, NULL};
 *	int n;
 *	int rc = xl_parse_options(&u, argc, argv, 0, &n);
 *	if (rc != XL_OPTS_PARSED)
 *		return rc;             // -h/--help (0) or a usage error (2), already printed
 *	// argv[1..n] are the positional arguments, in order
 *
 * Rules the parser applies to every command, so no command repeats them:
 *  - `--name=VALUE` and `--name VALUE` are the same; `-o VALUE` and `-oVALUE`
 *    likewise; an option without a value given `=VALUE` is an error.
 *  - `-h` and `--help` print the usage to stdout: the command exits 0.
 *  - An unknown option, a missing value, a number out of an XL_OPT_INT's
 *    bounds or a value the option's parse function refuses: a one-line
 *    error naming it, then the usage on stderr; the command exits
 *    XL_EXIT_USAGE (2).
 *  - `--` ends the options; a lone `-` is a positional argument.
 *  - With XL_OPTS_STOP_AT_ARG the first positional argument ends the options
 *    (everything from it on is left as is: a program and its arguments, or a
 *    subcommand and its own options).
 *
 * A command with subcommands lists them in a table ended by {NULL} and calls
 * xl_dispatch(), which handles -h/--help, a missing or unknown subcommand
 * (with a suggestion) and calls the subcommand with argv[0] = its name.
 *
 * The usage text is generated from these tables (xl_usage_print()); docs/cli.md
 * carries the same texts and tests/e2e/t0010-cli-help.py checks that they
 * agree.  Printing is the CLI's job: these functions print with msg.h.
 */
#ifndef XL_OPTIONS_H
#define XL_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct xl_ctx;

enum xl_opt_kind {
	XL_OPT_KIND_END,
	XL_OPT_KIND_BOOL,   /* no value: *(int *)dest = 1 */
	XL_OPT_KIND_SET,    /* no value: *(const char **)dest = set (one of several choices) */
	XL_OPT_KIND_STRING, /* a value: *(const char **)dest = it (the argv string) */
	XL_OPT_KIND_PARSE,  /* a value: parse(value, dest) checks and stores it */
	XL_OPT_KIND_OPTARG, /* an optional value, attached only (--name[=VALUE]): parse(value or NULL, dest) */
	XL_OPT_KIND_INT,    /* a value: a whole number from min to max, stored as dest's type */
};

/* The type XL_OPT_INT's destination has (chosen by the macro from it). */
enum xl_int_type {
	XL_INT_INT,
	XL_INT_LONG,
	XL_INT_SIZE,
};

struct xl_option {
	enum xl_opt_kind kind;
	char short_name;       /* 'o' for -o; 0 for none */
	const char *long_name; /* "sort" for --sort; NULL for none */
	void *dest;
	const char *arg;  /* the value's name in the usage ("KEY"); NULL without a value */
	const char *help; /* one line */
	const char *set;  /* XL_OPT_KIND_SET: the string stored */
	/* XL_OPT_KIND_PARSE / _OPTARG: 0, or -1 after printing the error
	 * (xl_error(), naming the option and what is expected). */
	int (*parse)(const char *value, void *dest);
	/* XL_OPT_KIND_INT: the bounds, dest's type, and what the value is for
	 * the error ("invalid --top 'x': expected a number of rows"; NULL: "a
	 * number from MIN to MAX"). */
	long min, max;
	enum xl_int_type int_type;
	const char *expected;
};

/* clang-format off */
#define XL_OPT_BOOL(s, l, dest_, help_) \
	{.kind = XL_OPT_KIND_BOOL, .short_name = (s), .long_name = (l), .dest = (dest_), .help = (help_)}
#define XL_OPT_SET(s, l, dest_, value, help_) \
	{.kind = XL_OPT_KIND_SET, .short_name = (s), .long_name = (l), .dest = (dest_), .help = (help_), .set = (value)}
#define XL_OPT_STRING(s, l, dest_, arg_, help_) \
	{.kind = XL_OPT_KIND_STRING, .short_name = (s), .long_name = (l), .dest = (dest_), .arg = (arg_), .help = (help_)}
#define XL_OPT_PARSE(s, l, dest_, arg_, help_, fn) \
	{.kind = XL_OPT_KIND_PARSE, .short_name = (s), .long_name = (l), .dest = (dest_), .arg = (arg_), .help = (help_), \
	 .parse = (fn)}
#define XL_OPT_OPTARG(s, l, dest_, arg_, help_, fn) \
	{.kind = XL_OPT_KIND_OPTARG, .short_name = (s), .long_name = (l), .dest = (dest_), .arg = (arg_), .help = (help_), \
	 .parse = (fn)}
/* A whole number from lo to hi into *dest, an int, a long or a size_t. */
#define XL_OPT_INT(s, l, dest_, arg_, help_, lo, hi, expected_) \
	{.kind = XL_OPT_KIND_INT, .short_name = (s), .long_name = (l), .dest = (dest_), .arg = (arg_), .help = (help_), \
	 .min = (lo), .max = (hi), .expected = (expected_), \
	 .int_type = _Generic((dest_), int *: XL_INT_INT, long *: XL_INT_LONG, size_t *: XL_INT_SIZE)}
#define XL_OPT_END() {.kind = XL_OPT_KIND_END}
/* clang-format on */

struct xl_subcommand {
	const char *name;
	int (*run)(int argc, const char **argv, struct xl_ctx *ctx);
	const char *summary; /* one line, in the parent's usage */
};

struct xl_usage {
	const char *name;                 /* as typed after "exaloop" ("profile report"); "" for exaloop itself */
	const char *args;                 /* positional arguments in the synopsis ("CAPTURE"); NULL for none */
	const char *about;                /* what the command does: one or more lines */
	const struct xl_option *options;  /* table ended by XL_OPT_END(), or NULL */
	const struct xl_subcommand *subs; /* table ended by {NULL}, or NULL */
	const char *footer;               /* printed last (examples, details), or NULL */
};

/* Returned by xl_parse_options() when the command goes on; anything else
 * is the exit code to return (help printed: 0; usage error: 2). */
#define XL_OPTS_PARSED (-1)

enum {
	XL_OPTS_STOP_AT_ARG = 1
};

/* Parse argv[1..argc) (argv[0] is the command's name) against u->options.
 * argv[argc] must be NULL (as main's is).  On XL_OPTS_PARSED, argv[1..*nargs]
 * hold the positional arguments in order (and with XL_OPTS_STOP_AT_ARG,
 * everything after the first of them), followed by NULL. */
int xl_parse_options(const struct xl_usage *u, int argc, const char **argv, unsigned flags, int *nargs);
/* Set by main: whether an argument is one of exaloop's global options
 * (globals.h: xl_is_global_option), so that a command given one after its
 * name says where it goes rather than "unknown option".  NULL: not known. */
extern int (*xl_option_is_global)(const char *arg);

/* Run the subcommand argv[1] of u->subs with argv + 1 (after u's own
 * options, which end at the subcommand).  Returns its exit code, 0 after
 * -h/--help, XL_EXIT_USAGE when it is missing or unknown. */
int xl_dispatch(const struct xl_usage *u, int argc, const char **argv, struct xl_ctx *ctx);

/* The generated usage: synopsis, about, options (with -h/--help),
 * subcommands, footer. */
void xl_usage_print(const struct xl_usage *u, FILE *f);

/* Does the option take a value (--name VALUE, --name=VALUE)? */
int xl_option_has_value(const struct xl_option *o);

/* -h or --help among argv[1..argc) before the first argument that is not
 * an option (or `--`): for commands whose options are not a table (run,
 * build pass compiler options through).  Prints the usage to stdout. */
int xl_help_requested(const struct xl_usage *u, int argc, const char **argv);

#endif
