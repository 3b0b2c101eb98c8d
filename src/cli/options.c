/*
 * options.c - the option parser, usage generator and subcommand dispatcher
 * (see options.h for the rules every command gets from here).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "units.h"
#include "xl_assert.h"

/* Width of the left column of option and command lists. */
#define USAGE_COLUMN 24

int xl_option_has_value(const struct xl_option *o)
{
	return o->kind == XL_OPT_KIND_STRING || o->kind == XL_OPT_KIND_PARSE || o->kind == XL_OPT_KIND_INT;
}

/* "--name", "-o" or "-o, --name" as the user writes it (for messages). */
static void option_name(const struct xl_option *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

/* The command as the user typed it, for messages: "exaloop" or "profile report". */
/* "exaloop" or "exaloop profile report": the command as typed. */
static void command_name(const struct xl_usage *u, char *buf, size_t len)
{
	snprintf(buf, len, "exaloop%s%s", u->name && u->name[0] ? " " : "", u->name ? u->name : "");
}

int (*xl_option_is_global)(const char *arg);

/* "a, b or c" into buf. */
static void sub_list(const struct xl_subcommand *subs, char *buf, size_t len)
{
	size_t n = 0, used = 0;
	while (subs[n].name)
		n++;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0       ? ""
					 : i + 1 == n ? " or "
						      : ", ",
					 subs[i].name);
}

/* ---------------------------------------------------------------- usage */

static void print_option(FILE *f, const struct xl_option *o)
{
	char left[96];
	size_t n = 0;
	if (o->short_name)
		n += (size_t)snprintf(left + n, sizeof(left) - n, "-%c%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name)
		n += (size_t)snprintf(left + n, sizeof(left) - n, "--%s", o->long_name);
	if (o->kind == XL_OPT_KIND_OPTARG)
		snprintf(left + n, sizeof(left) - n, "[=%s]", o->arg);
	else if (xl_option_has_value(o))
		snprintf(left + n, sizeof(left) - n, " %s", o->arg);
	fprintf(f, "  %-*s %s\n", USAGE_COLUMN - 3, left, o->help);
}

void xl_usage_print(const struct xl_usage *u, FILE *f)
{
	int has_options = u->options && u->options[0].kind != XL_OPT_KIND_END;
	fprintf(f, "usage: exaloop%s%s%s", u->name[0] ? " " : "", u->name, has_options ? " [options]" : "");
	if (u->subs)
		fputs(" <command> [<args>]", f);
	if (u->args)
		fprintf(f, " %s", u->args);
	fputs("\n", f);
	if (u->about)
		fprintf(f, "\n%s\n", u->about);
	fputs("\noptions:\n", f);
	for (const struct xl_option *o = u->options; o && o->kind != XL_OPT_KIND_END; o++)
		print_option(f, o);
	fprintf(f, "  %-*s %s\n", USAGE_COLUMN - 3, "-h, --help", "show this help");
	if (u->subs) {
		fputs("\ncommands:\n", f);
		for (const struct xl_subcommand *s = u->subs; s->name; s++)
			fprintf(f, "  %-*s %s\n", USAGE_COLUMN - 3, s->name, s->summary);
		fprintf(f, "\n'exaloop %s%s<command> --help' shows a command's usage.\n", u->name,
			u->name[0] ? " " : "");
	}
	if (u->footer)
		fprintf(f, "\n%s", u->footer);
}

/* ---------------------------------------------------------------- parsing */

static const struct xl_option *find_long(const struct xl_option *opts, const char *name, size_t len)
{
	for (const struct xl_option *o = opts; o && o->kind != XL_OPT_KIND_END; o++)
		if (o->long_name && strlen(o->long_name) == len && strncmp(o->long_name, name, len) == 0)
			return o;
	return NULL;
}

static const struct xl_option *find_short(const struct xl_option *opts, char c)
{
	for (const struct xl_option *o = opts; o && o->kind != XL_OPT_KIND_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* An XL_OPT_INT's value, checked against its bounds (xl_parse_long, the
 * one integer parser) and stored as its destination's type. */
static int store_int(const struct xl_option *o, const char *name, const char *value)
{
	long v;
	/* the table's bounds must fit the destination's type */
	XL_ASSERT(o->min <= o->max);
	XL_ASSERT(o->int_type != XL_INT_INT || (o->min >= INT_MIN && o->max <= INT_MAX));
	XL_ASSERT(o->int_type != XL_INT_SIZE || o->min >= 0);
	if (xl_parse_long(value, o->min, o->max, &v) != 0) {
		if (o->expected)
			xl_error("invalid %s '%s': expected %s", name, value, o->expected);
		else
			xl_error("invalid %s '%s': expected a number from %ld to %ld", name, value, o->min, o->max);
		return -1;
	}
	switch (o->int_type) {
	case XL_INT_INT: *(int *)o->dest = (int)v; break;
	case XL_INT_LONG: *(long *)o->dest = v; break;
	case XL_INT_SIZE: *(size_t *)o->dest = (size_t)v; break;
	}
	return 0;
}

/* Store one option.  value: its attached value ("--x=v", "-ov") or NULL;
 * takes the next argument when the option needs one.  0 or -1 (printed). */
static int apply(const struct xl_usage *u, const struct xl_option *o, const char *value, int argc, const char **argv,
		 int *ip)
{
	char name[64];
	option_name(o, name, sizeof(name));
	switch (o->kind) {
	case XL_OPT_KIND_BOOL:
	case XL_OPT_KIND_SET:
		if (value) {
			char cmd[96];
			command_name(u, cmd, sizeof(cmd));
			xl_error("'%s' takes no value (in '%s')", name, cmd);
			return -1;
		}
		if (o->kind == XL_OPT_KIND_BOOL)
			*(int *)o->dest = 1;
		else
			*(const char **)o->dest = o->set;
		return 0;
	case XL_OPT_KIND_OPTARG: return o->parse(value, o->dest);
	case XL_OPT_KIND_STRING:
	case XL_OPT_KIND_PARSE:
	case XL_OPT_KIND_INT:
		if (!value) {
			if (*ip + 1 >= argc) {
				xl_error("'%s' needs a value: %s %s", name, name, o->arg);
				return -1;
			}
			value = argv[++*ip];
		}
		if (o->kind == XL_OPT_KIND_STRING) {
			*(const char **)o->dest = value;
			return 0;
		}
		if (o->kind == XL_OPT_KIND_INT)
			return store_int(o, name, value);
		return o->parse(value, o->dest);
	case XL_OPT_KIND_END: break;
	}
	return -1;
}

/* One option argument at argv[*ip]: 0, 1 for -h/--help, -1 on an error (printed). */
static int parse_one(const struct xl_usage *u, int argc, const char **argv, int *ip)
{
	const char *a = argv[*ip];
	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
		return 1;
	const struct xl_option *o;
	const char *value = NULL;
	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');
		size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
		o = find_long(u->options, a + 2, len);
		value = eq ? eq + 1 : NULL;
	} else {
		o = find_short(u->options, a[1]);
		value = a[2] ? a + 2 : NULL;
		if (o && value && !xl_option_has_value(o))
			o = NULL; /* no bundling of flags: "-xy" is unknown */
	}
	int global = !o && u->name[0] && xl_option_is_global ? xl_option_is_global(a) : 0;
	if (global) { /* as run and build say it (args.c) */
		size_t n = strcspn(a, "=");
		const char *v = global == 2 && *ip + 1 < argc ? argv[*ip + 1] : NULL;
		xl_error("'%.*s' must come before '%s': exaloop %s%s%s %s ...", (int)n, a, u->name, a, v ? " " : "",
			 v ? v : "", u->name);
		return -1;
	}
	if (!o) {
		if (u->name[0])
			xl_error("unknown option '%s' for '%s'", a, u->name);
		else
			xl_error("unknown option '%s'", a);
		return -1;
	}
	return apply(u, o, value, argc, argv, ip);
}

int xl_parse_options(const struct xl_usage *u, int argc, const char **argv, unsigned flags, int *nargs)
{
	int n = 0, only_args = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == 0) {
			argv[++n] = a;
			if (flags & XL_OPTS_STOP_AT_ARG)
				only_args = 1;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_args = 1;
			continue;
		}
		int rc = parse_one(u, argc, argv, &i);
		if (rc == 1) {
			xl_usage_print(u, stdout);
			return XL_EXIT_OK;
		}
		if (rc != 0) {
			xl_usage_print(u, stderr);
			return XL_EXIT_USAGE;
		}
	}
	argv[n + 1] = NULL; /* argv[argc] is NULL: the positionals stay a NULL-terminated list */
	*nargs = n;
	return XL_OPTS_PARSED;
}

int xl_help_requested(const struct xl_usage *u, int argc, const char **argv)
{
	for (int i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			xl_usage_print(u, stdout);
			return 1;
		}
	return 0;
}

/* ---------------------------------------------------------------- dispatch */

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 32 || lb > 32)
		return 99;
	size_t d[33][33];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[la][lb];
}

int xl_dispatch(const struct xl_usage *u, int argc, const char **argv, struct xl_ctx *ctx)
{
	int n;
	int rc = xl_parse_options(u, argc, argv, XL_OPTS_STOP_AT_ARG, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	char names[256];
	sub_list(u->subs, names, sizeof(names));
	if (n == 0) {
		if (u->name[0])
			xl_error("'%s' needs a subcommand: %s", u->name, names);
		xl_usage_print(u, stderr);
		return XL_EXIT_USAGE;
	}
	for (const struct xl_subcommand *s = u->subs; s->name; s++)
		if (strcmp(argv[1], s->name) == 0)
			return s->run(n, argv + 1, ctx);
	if (u->name[0])
		xl_error("'%s' is not a %s subcommand (use %s)", argv[1], u->name, names);
	else
		xl_error("'%s' is not an exaloop command", argv[1]);
	for (const struct xl_subcommand *s = u->subs; s->name; s++)
		if (edit_distance(argv[1], s->name) <= 2)
			xl_hint("did you mean '%s'?", s->name);
	xl_hint("see 'exaloop%s%s --help'", u->name[0] ? " " : "", u->name);
	return XL_EXIT_USAGE;
}
