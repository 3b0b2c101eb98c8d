/*
 * main.c - exaloop's entry point: global options, then one subcommand
 * from the table below (options.h: adding a command is one row here).
 *
 *   exaloop [--profile[=all|memory|xray]] [--no-open] [--target NAME] COMMAND ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "exaloop/xl_capture.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "project.h"
#include "units.h"

static int parse_profile(const char *mode, void *dest)
{
	struct xl_ctx *ctx = dest;
	ctx->profile = 1;
	if (!mode) {
		ctx->mode = XL_MODE_ALL;
		return 0;
	}
	ctx->mode_explicit = 1;
	if (xl_mode_parse(mode, &ctx->mode) != 0) {
		xl_error("invalid profile mode '%s' (use all, memory or xray)", mode);
		return -1;
	}
	return 0;
}

static int parse_timeline(const char *mode, void *dest)
{
	struct xl_ctx *ctx = dest;
	if (xl_tl_mode_parse(mode, &ctx->tl_mode) != 0) {
		xl_error("invalid timeline mode '%s' (use auto, first or last)", mode);
		return -1;
	}
	return 0;
}

static int parse_timeline_min(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	char msg[256];
	if (xl_parse_duration(value, &ctx->tl_min_ns, msg, sizeof(msg)) != 0) {
		xl_error("%s for '--timeline-min-duration' (e.g. 10us)", msg);
		return -1;
	}
	ctx->tl_min_set = 1;
	return 0;
}

/* The capture window and buffers, with exaloop.toml's units and bounds
 * (docs/toml.md); they override the target's values.  One value of
 * option `opt`: parsed with `parse`, then checked against `problem`
 * (NULL: any value); *set says it was given. */
static int parse_setting(const char *value, const char *opt, int (*parse)(const char *, uint64_t *, char *, size_t),
			 const char *(*problem)(uint64_t), uint64_t *out, int *set)
{
	char msg[256];
	if (parse(value, out, msg, sizeof(msg)) != 0) {
		xl_error("%s for '--%s'", msg, opt);
		return -1;
	}
	if (problem && problem(*out)) {
		xl_error("'--%s' %s", opt, problem(*out));
		return -1;
	}
	if (set)
		*set = 1;
	return 0;
}

static int parse_delay(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "delay", xl_parse_duration, NULL, &ctx->delay_ns, &ctx->delay_set);
}

static int parse_duration(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "duration", xl_parse_duration, NULL, &ctx->duration_ns, &ctx->duration_set);
}

static int parse_interval(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "memory-interval", xl_parse_duration, xl_interval_problem, &ctx->interval_ns, NULL);
}

static int parse_buffer_size(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "buffer-size", xl_parse_size, xl_buffer_size_problem, &ctx->buffer_size, NULL);
}

static int parse_include(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	if (!value[0]) {
		xl_error("empty pattern for '--include' (e.g. --include '*process_batch*')");
		return -1;
	}
	const char **v = realloc(ctx->include, (ctx->ninclude + 2) * sizeof(*v));
	if (!v) {
		xl_error("out of memory");
		return -1;
	}
	v[ctx->ninclude++] = value;
	v[ctx->ninclude] = NULL;
	ctx->include = v;
	return 0;
}

static const struct xl_subcommand commands[] = {
	{"run", cmd_run, "build a program and run it (with capture under --profile)"},
	{"build", cmd_build, "build a program (for profiling under --profile)"},
	{"profile", cmd_profile,
	 "exec | report | export | diff: capture from a built program, read and compare captures"},
	{"pgo", cmd_pgo, "train | evaluate: build with clang's profile-guided optimisation and measure it"},
	{"doctor", cmd_doctor, "check the toolchain and, with --profiling, the native capture path"},
	{"plugin", cmd_plugin, "add | list | remove: register an installed profiling SDK"},
	{"cc", cmd_cc, "clang-14 plus exaloop's instrumentation, for a project's own build (CC=\"exaloop cc\")"},
	{"c++", cmd_cc, "clang++-14 plus exaloop's instrumentation (CXX=\"exaloop c++\")"},
	{NULL, NULL, NULL},
};

int main(int argc, char **argv_)
{
	const char **argv = (const char **)argv_;
	struct xl_ctx ctx = {0};
	ctx.argc = argc;
	ctx.argv = argv;
	/* Installed as exaloop-cc / exaloop-c++ (links): a compiler, every
	 * argument is the build's. */
	const char *self = strrchr(argv[0], '/');
	self = self ? self + 1 : argv[0];
	if (strcmp(self, "exaloop-cc") == 0 || strcmp(self, "exaloop-c++") == 0) {
		argv[0] = self + 8;
		return cmd_cc(argc, argv, &ctx);
	}
	int version = 0, no_allocations = 0;
	const struct xl_option opts[] = {
		XL_OPT_OPTARG(0, "profile", &ctx, "MODE",
			      "capture functions and memory; MODE: all (default), memory or xray", parse_profile),
		XL_OPT_BOOL(0, "no-open", &ctx.no_open, "do not open the report in a browser"),
		XL_OPT_BOOL(0, "no-allocations", &no_allocations,
			    "do not record heap allocations (malloc, new, GC_malloc)"),
		XL_OPT_STRING(0, "target", &ctx.target, "NAME", "build or run a target of exaloop.toml"),
		XL_OPT_PARSE(0, "timeline", &ctx, "MODE",
			     "timeline kept: auto (default: all the run, short calls left out), first or last",
			     parse_timeline),
		XL_OPT_PARSE(0, "timeline-min-duration", &ctx, "D",
			     "leave calls shorter than D (e.g. 10us) out of the timeline", parse_timeline_min),
		XL_OPT_PARSE(0, "delay", &ctx, "D", "open the capture window D after the start (e.g. 10s)",
			     parse_delay),
		XL_OPT_PARSE(0, "duration", &ctx, "D", "close the capture window D after it opens; the program runs on",
			     parse_duration),
		XL_OPT_PARSE(0, "include", &ctx, "PATTERN",
			     "trace only functions matching PATTERN (e.g. '*process_batch*'); repeatable",
			     parse_include),
		XL_OPT_PARSE(0, "buffer-size", &ctx, "SIZE", "capture buffer (e.g. 256MiB; default 64MiB)",
			     parse_buffer_size),
		XL_OPT_PARSE(0, "memory-interval", &ctx, "D", "memory sample interval (e.g. 100ms; default 100ms)",
			     parse_interval),
		XL_OPT_BOOL(0, "version", &version, "print exaloop's version"),
		XL_OPT_END(),
	};
	const struct xl_usage usage = {
		"",
		NULL,
		"Profile C and C++ programs built with LLVM XRay. Options go before the command.",
		opts,
		commands,
		"examples:\n"
		"  exaloop --profile run -release app.c input.json\n"
		"  exaloop --profile=memory build -release app.c -o app\n"
		"  exaloop profile exec ./app input.json\n"
		"  exaloop --profile build -- make -j2      (a project's own build, with exaloop cc / exaloop c++)\n"
		"  exaloop profile report profiles/capture-EXAMPLE --text --sort self --top 30\n",
	};
	/* The parsers reorder what they are given: they get a copy, ctx.argv
	 * stays the command line as typed (recorded in run.json).  The global
	 * options end at the command; xl_dispatch() reads the command from
	 * what is left (and finds no more options there). */
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	int n;
	int rc = xl_parse_options(&usage, argc, args, XL_OPTS_STOP_AT_ARG, &n);
	if (rc == XL_OPTS_PARSED && version) {
		printf("exaloop %s\n", XL_VERSION);
		rc = XL_EXIT_OK;
	} else if (rc == XL_OPTS_PARSED && n > 0 && strcmp(args[1], "help") == 0) {
		xl_usage_print(&usage, stdout);
		rc = XL_EXIT_OK;
	} else if (rc == XL_OPTS_PARSED) {
		/* One switch for the build's link (toolchain.c), a project's
		 * compiler wrappers (cmd_cc.c, through the build's environment)
		 * and the runtime of the program run (xl_capture.h). */
		if (no_allocations)
			setenv(XL_ENV_ALLOCS, "0", 1);
		rc = xl_dispatch(&usage, n + 1, args, &ctx);
	}
	free(args);
	free(ctx.include);
	return rc;
}
