/*
 * main.c - exaloop's entry point: global options, then one subcommand
 * from the table below.
 *
 *   exaloop [--profile[=all|memory|xray]] [--no-open] [--target NAME] COMMAND ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv, struct xl_ctx *ctx);
	const char *help;
} commands[] = {
	{"run", cmd_run, "build a program and run it (with capture under --profile)"},
	{"build", cmd_build, "build a program (for profiling under --profile)"},
	{"profile", cmd_profile, "exec | report | export: capture from a built program, read captures"},
	{"doctor", cmd_doctor, "check the toolchain and, with --profiling, the native capture path"},
	{"plugin", cmd_plugin, "add | list | remove: register an installed profiling SDK"},
};

static void usage(FILE *f)
{
	fputs("usage: exaloop [--profile[=all|memory|xray]] [--no-open] [--target NAME] <command> [<args>]\n\n"
	      "commands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\nexamples:\n"
	      "  exaloop --profile run -release app.c input.json\n"
	      "  exaloop --profile=memory build -release app.c -o app\n"
	      "  exaloop profile exec ./app input.json\n"
	      "  exaloop profile report profiles/capture-EXAMPLE --text --sort self --top 30\n", f);
}

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

static int parse_mode(const char *s, uint32_t *mode)
{
	if (strcmp(s, "all") == 0)
		*mode = XL_MODE_ALL;
	else if (strcmp(s, "memory") == 0)
		*mode = XL_MODE_MEMORY;
	else if (strcmp(s, "xray") == 0)
		*mode = XL_MODE_XRAY;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv_)
{
	const char **argv = (const char **)argv_;
	struct xl_ctx ctx = {0};
	ctx.argc = argc;
	ctx.argv = argv;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--profile") == 0) {
			ctx.profile = 1;
			ctx.mode = XL_MODE_ALL;
		} else if (strncmp(a, "--profile=", 10) == 0) {
			ctx.profile = 1;
			ctx.mode_explicit = 1;
			if (parse_mode(a + 10, &ctx.mode) != 0) {
				xl_error("invalid profile mode '%s' (use all, memory or xray)", a + 10);
				return XL_EXIT_USAGE;
			}
		} else if (strcmp(a, "--no-open") == 0) {
			ctx.no_open = 1;
		} else if (strcmp(a, "--target") == 0 || strncmp(a, "--target=", 9) == 0) {
			if (a[8] == '=')
				ctx.target = a + 9;
			else if (i + 1 < argc)
				ctx.target = argv[++i];
			else {
				xl_error("'--target' needs a target name");
				return XL_EXIT_USAGE;
			}
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return XL_EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("exaloop %s\n", XL_VERSION);
			return XL_EXIT_OK;
		} else {
			xl_error("unknown option '%s'", a);
			usage(stderr);
			return XL_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return XL_EXIT_USAGE;
	}
	const char *name = argv[i];
	if (strcmp(name, "help") == 0) {
		usage(stdout);
		return XL_EXIT_OK;
	}
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(name, commands[k].name) == 0)
			return commands[k].fn(argc - i, argv + i, &ctx);
	xl_error("'%s' is not an exaloop command", name);
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (edit_distance(name, commands[k].name) <= 2)
			xl_hint("did you mean '%s'?", commands[k].name);
	xl_hint("see 'exaloop --help'");
	return XL_EXIT_USAGE;
}
