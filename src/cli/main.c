/*
 * main.c - exaloop's entry point: global options (globals.h), then one
 * subcommand from the tables below (options.h: adding a command is one row
 * here).  The only file that calls into the cmd_*.c files.
 *
 *   exaloop [global options] COMMAND ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exaloop/xl_capture.h"
#include "cmd.h"
#include "exitcode.h"
#include "globals.h"
#include "msg.h"
#include "options.h"

/* `profile`: a group whose subcommands live in two files (cmd_profile.c,
 * cmd_diff.c), so its table is here with the commands'. */
static int cmd_profile(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_subcommand subs[] = {
		{"exec", cmd_profile_exec, "capture from a program built with 'exaloop --profile build'"},
		{"report", cmd_profile_report, "report a capture: HTML, text or JSON"},
		{"export", cmd_profile_export,
		 "write a capture as a Chrome trace, folded stacks, pprof, HTML, JSON or text"},
		{"diff", cmd_profile_diff, "compare two captures (or two sets of runs): text, JSON or HTML"},
		{"attach", cmd_profile_attach, "capture from a running program built with 'exaloop --profile build'"},
		{NULL, NULL, NULL},
	};
	static const struct xl_usage usage = {
		"profile", NULL, "Capture from a built program, read captures and compare them.", NULL, subs, NULL};
	return xl_dispatch(&usage, argc, argv, ctx);
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

/* A capture option given to run or build without --profile would be
 * ignored (there is no capture): said, with what to add, exit 2.  The
 * profile commands capture anyway; a target's profile table without
 * --profile is the project's default, not a request. */
static int capture_option_alone(const struct xl_ctx *ctx, const char *cmd, const char *sub)
{
	/* profile report, export and diff read captures: an option of the
	 * capture would be ignored there, whatever --profile says */
	int reads = strcmp(cmd, "profile") == 0 && sub &&
		    (strcmp(sub, "report") == 0 || strcmp(sub, "export") == 0 || strcmp(sub, "diff") == 0);
	if (!reads && (ctx->profile || (strcmp(cmd, "run") != 0 && strcmp(cmd, "build") != 0)))
		return 0;
	const char *opt = ctx->delay_set             ? "--delay"
			  : ctx->duration_set        ? "--duration"
			  : ctx->timing              ? "--timing"
			  : ctx->ninclude            ? "--include"
			  : ctx->sample_rate_set     ? "--sample-rate"
			  : ctx->no_samples          ? "--no-samples"
			  : ctx->buffer_size         ? "--buffer-size"
			  : ctx->interval_ns         ? "--memory-interval"
			  : ctx->tl_mode             ? "--timeline"
			  : ctx->tl_min_set          ? "--timeline-min-duration"
			  : ctx->no_source && !reads ? "--no-source"
						     : NULL;
	if (!opt)
		return 0;
	if (reads) {
		xl_error("%s sets a capture, and 'profile %s' reads captures made already: drop it", opt, sub);
		return 1;
	}
	xl_error("%s sets the capture, and '%s' captures only with --profile (exaloop --profile %s ... %s ...)", opt,
		 cmd, opt, cmd);
	return 1;
}

int main(int argc, char **argv_)
{
	xl_option_is_global = xl_is_global_option; /* options.h: "must come before" */
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
	struct xl_globals g = {&ctx, 0, 0};
	struct xl_option opts[XL_GLOBAL_OPTIONS];
	xl_global_options(&g, opts);
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
	if (rc == XL_OPTS_PARSED && g.version) {
		printf("exaloop %s\n", XL_VERSION);
		rc = XL_EXIT_OK;
	} else if (rc == XL_OPTS_PARSED && n > 0 && strcmp(args[1], "help") == 0) {
		xl_usage_print(&usage, stdout);
		rc = XL_EXIT_OK;
	} else if (rc == XL_OPTS_PARSED && n > 0 && capture_option_alone(&ctx, args[1], n > 1 ? args[2] : NULL)) {
		rc = XL_EXIT_USAGE;
	} else if (rc == XL_OPTS_PARSED) {
		/* One switch for the build's link (toolchain.c), a project's
		 * compiler wrappers (cmd_cc.c, through the build's environment)
		 * and the runtime of the program run (xl_capture.h). */
		if (g.no_allocations)
			setenv(XL_ENV_ALLOCS, "0", 1);
		rc = xl_dispatch(&usage, n + 1, args, &ctx);
	}
	free(args);
	free(ctx.include);
	return rc;
}
