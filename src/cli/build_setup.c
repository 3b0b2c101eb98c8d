/*
 * build_setup.c - the first steps shared by `run` and `build` (see
 * build_setup.h).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exaloop/xl_capture.h"

#include "args.h"
#include "build_setup.h"
#include "ctx.h"
#include "exitcode.h"
#include "globals.h"
#include "msg.h"
#include "project.h"
#include "sdk.h"
#include "strvec.h"

/* A path of exaloop.toml, relative to its directory unless absolute. */
static void push_in(struct strvec *v, const char *dir, const char *path)
{
	if (path[0] == '/')
		strvec_push(v, path);
	else
		strvec_pushf(v, "%s/%s", dir, path);
}

int xl_target_load(const struct xl_ctx *ctx, struct xl_target *t)
{
	char path[PATH_MAX], err[1024];
	memset(t, 0, sizeof(*t));
	if (xl_project_find(path, sizeof(path)) != 0) {
		xl_error("'--target %s' needs an exaloop.toml in the current directory or a parent, and there is none",
			 ctx->target);
		return XL_EXIT_USAGE;
	}
	if (xl_project_load_target(path, ctx->target, t, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_USAGE;
	}
	/* The command line's --profile MODE wins over the target's `mode`:
	 * one rule for every command that takes a target. */
	if (ctx->mode_explicit) {
		t->profile.mode = ctx->mode;
		t->profile.mode_set = 1;
	}
	return 0;
}

int xl_target_argv(const struct xl_ctx *ctx, const char *cmd, int argc, int with_args, struct xl_target *t,
		   const char ***argv_out, int *argc_out)
{
	if (argc > 1) {
		xl_error(
			"with '--target %s', sources and arguments come from exaloop.toml: remove the arguments after '%s'",
			ctx->target, cmd);
		return XL_EXIT_USAGE;
	}
	int rc = xl_target_load(ctx, t);
	if (rc)
		return rc;
	/* `allocations = false`: the link leaves the allocation functions
	 * unwrapped and the runtime records none (toolchain.h, xl_capture.h). */
	if (!t->profile.allocations)
		setenv(XL_ENV_ALLOCS, "0", 1);
	/* The target's PGO profile applies to run and build (pgo train and
	 * evaluate choose their builds themselves). */
	int pgo = t->pgo_profile && (strcmp(cmd, "run") == 0 || strcmp(cmd, "build") == 0);
	struct strvec v;
	strvec_init(&v);
	strvec_push(&v, cmd);
	if (pgo) {
		strvec_push(&v, "--pgo");
		push_in(&v, t->dir, t->pgo_profile);
	}
	strvec_pushv(&v, (const char *const *)t->build_args);
	for (char **src = t->sources; src && *src; src++)
		push_in(&v, t->dir, *src);
	if (with_args && t->args && t->args[0]) {
		strvec_push(&v, "--");
		strvec_pushv(&v, (const char *const *)t->args);
	}
	*argc_out = (int)v.n;
	*argv_out = (const char **)strvec_detach(&v);
	if (!*argv_out) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	return 0;
}

void xl_target_argv_free(const char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free((char *)argv[i]);
	free(argv);
}

int xl_build_prepare(const struct xl_ctx *ctx, int argc, const char **argv, int is_build, struct xl_build_args *a,
		     struct xl_sdk *sdk)
{
	char err[1024];
	if (xl_split_build_args(argc, argv, is_build, xl_is_global_option, a, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		xl_build_args_release(a);
		return XL_EXIT_USAGE;
	}
	const char *l = is_build || a->dashdash ? NULL : xl_link_like_arg(a);
	if (l)
		xl_hint("'%s' comes after the sources, so the program gets it: build and link options go before the "
			"first source (exaloop run %s app.c ...); put '--' after the sources to pass it on without this hint",
			l, l);
	if (ctx->profile && a->shared) {
		xl_error("'-shared' cannot be profiled: profiling applies to standalone applications");
		xl_build_args_release(a);
		return XL_EXIT_USAGE;
	}
	if (ctx->profile && xl_sdk_find(sdk, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		xl_build_args_release(a);
		return XL_EXIT_BUILD;
	}
	return 0;
}
